#include "judge/sandbox/tool_command.hpp"

#include <fmt/format.h>

#include <cmath>
#include <exception>

namespace judge {

std::string tool_result::failure_text(std::chrono::duration<double> limit) const {
  if (!started()) return start_failure;
  if (timed_out()) return fmt::format("did not finish within {} s", std::lround(limit.count()));
  std::string said = run.err.kept.empty() ? run.out.kept : run.err.kept;
  while (!said.empty() && (said.back() == '\n' || said.back() == ' ')) said.pop_back();
  const std::string first_line = said.substr(0, said.find('\n'));
  return first_line.empty() ? describe(run.status) : describe(run.status) + ": " + first_line;
}

tool_result run_trusted_tool(const std::vector<std::string>& argv, std::chrono::duration<double> limit,
                             const std::map<std::string, std::string>& environment, std::size_t output_cap) {
  process_options options;
  options.argv = argv;
  options.env = environment;
  options.output_cap = output_cap;
  tool_result result;
  try {
    result.run = run_to_completion(options, limit);
  } catch (const std::exception& e) { // not found, not executable, no fork
    result.start_failure = e.what();
  }
  return result;
}

} // namespace judge
