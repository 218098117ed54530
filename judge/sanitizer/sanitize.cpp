#include "judge/sanitizer/sanitize.hpp"

#include "judge/base/environment.hpp"
#include "judge/sandbox/tool_path.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <unistd.h>

namespace judge {

namespace {

namespace fs = std::filesystem;

constexpr const char* executable_name = "compute-sanitizer";
constexpr std::size_t kept_findings = 8;

/// The last few non-empty lines of `text`: a tool's own complaint when it could not run the case.
std::string last_lines(const std::string& text, std::size_t count) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) lines.push_back(line);
  const std::size_t first = lines.size() > count ? lines.size() - count : 0;
  std::string out;
  for (std::size_t i = first; i < lines.size(); ++i) out += (out.empty() ? "" : "\n") + lines[i];
  return out;
}

} // namespace

sanitizer_options find_compute_sanitizer(const fs::path& nvcc) {
  const found_tool tool = find_cuda_tool(executable_name, env_name(judge_env::compute_sanitizer), nvcc);
  sanitizer_options found;
  found.executable = tool.executable;
  found.missing = tool.missing;
  return found;
}

double sanitizer_seconds(double case_seconds) { return std::min(300.0, 30.0 + 10.0 * case_seconds); }

std::vector<std::string> sanitizer_command(const fs::path& executable, sanitizer_tool tool, int print_limit) {
  // Device-side places only: host backtraces name the judge's frames, not the learner's.
  return {executable.string(),        "--tool", tool_name(tool), "--show-backtrace", "device", "--print-limit",
          std::to_string(print_limit)};
}

sanitizer_run read_sanitizer_run(sanitizer_tool tool, const tool_run& run, double limit_seconds) {
  sanitizer_run result;
  result.tool = tool;
  result.seconds = run.seconds;
  if (!run.started) {
    result.state = sanitizer_state::failed;
    result.detail = run.start_failure;
    return result;
  }
  // The tool's lines may be on either stream; the runner's buffer map is on its stderr.
  const std::string text = run.out.kept + "\n" + run.err.kept;
  const sanitizer_findings parsed = parse_sanitizer_output(tool, text, parse_buffer_map(run.err.kept), kept_findings);
  result.errors = parsed.errors;
  result.findings = parsed.findings;
  if (run.timed_out) {
    result.state = sanitizer_state::timed_out;
    result.detail = fmt::format("stopped after {:.0f} s", limit_seconds);
  } else if (run.answers.empty() && parsed.findings.empty()) {
    // The runner never said hello: it did not run the case under the tool (a result channel the tool did
    // not pass on, a runner that could not start there), whatever summary the tool printed.
    result.state = sanitizer_state::failed;
    const std::string said = last_lines(text, 4);
    result.detail = fmt::format("the runner under {} {} without answering{}", executable_name, describe(run.exit),
                                said.empty() ? "" : ": " + said);
  } else if (!parsed.summary_seen && parsed.findings.empty()) {
    // It ended without its summary: it did not check the case (a refused option, a target it could not
    // attach to, a sandbox it cannot work in). Its own last words say why.
    result.state = sanitizer_state::failed;
    const std::string said = last_lines(text, 4);
    result.detail = said.empty() ? fmt::format("{} {} and printed nothing", executable_name, describe(run.exit)) : said;
  }
  return result;
}

sanitizer_run run_sanitizer(const runner_options& runner, const sanitizer_options& options, sanitizer_tool tool,
                            const std::vector<std::string>& requests, double limit_seconds) {
  if (options.executable.empty()) {
    sanitizer_run missing;
    missing.tool = tool;
    missing.state = sanitizer_state::not_available;
    missing.detail = options.missing;
    return missing;
  }
  tool_options t;
  t.prefix = sanitizer_command(options.executable, tool, static_cast<int>(kept_findings));
  t.runner_flags = {"--exact-buffers"};
  // The tool's own files (its injection library beside it) must be visible where the toolkit is not
  // under a system folder.
  std::error_code ec;
  const fs::path real = fs::canonical(options.executable, ec);
  t.read_only_paths = {(ec ? options.executable : real).parent_path()};
  t.limit_seconds = limit_seconds;
  return read_sanitizer_run(tool, run_under_tool(runner, t, requests), limit_seconds);
}

} // namespace judge
