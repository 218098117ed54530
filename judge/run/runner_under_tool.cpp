#include "judge/run/runner_under_tool.hpp"

#include <chrono>
#include <exception>

namespace judge {

tool_run run_under_tool(const runner_options& runner, const tool_options& tool,
                        const std::vector<std::string>& requests) {
  using clock_type = std::chrono::steady_clock;
  process_options p = runner_process_options(runner);
  std::vector<std::string> argv = tool.prefix;
  argv.insert(argv.end(), p.argv.begin(), p.argv.end());
  argv.push_back("--profiler");
  argv.insert(argv.end(), tool.runner_flags.begin(), tool.runner_flags.end());
  p.argv = std::move(argv);
  for (const auto& [name, value] : tool.env) p.env[name] = value;
  p.read_only_paths.insert(p.read_only_paths.end(), tool.read_only_paths.begin(), tool.read_only_paths.end());
  p.output_cap = tool.output_cap;

  tool_run run;
  const clock_type::time_point start = clock_type::now();
  const clock_type::time_point deadline =
      start + std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(tool.limit_seconds));
  std::unique_ptr<child_process> child;
  try {
    child = std::make_unique<child_process>(p);
  } catch (const std::exception& e) {
    run.start_failure = e.what();
    return run;
  }
  run.started = true;
  for (const std::string& line : requests)
    if (!child->send_line(line, deadline)) break; // it ended, or the time is up: wait() says which
  child->close_stdin();
  while (const auto line = child->read_result_line(deadline)) run.answers.push_back(*line);
  run.timed_out = child->timed_out();
  if (run.timed_out) child->kill_group();
  run.exit = child->wait(run.timed_out ? clock_type::now() + std::chrono::seconds(5) : deadline);
  run.timed_out = run.timed_out || run.exit.killed_by_judge;
  run.out = child->out();
  run.err = child->err();
  run.seconds = std::chrono::duration<double>(clock_type::now() - start).count();
  return run;
}

} // namespace judge
