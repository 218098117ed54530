#include "judge/run/learner_output.hpp"

namespace judge {

std::string without_runner_lines(std::string_view printed) {
  std::string kept;
  kept.reserve(printed.size());
  while (!printed.empty()) {
    const std::size_t end = printed.find('\n');
    const std::string_view line = printed.substr(0, end == std::string_view::npos ? printed.size() : end + 1);
    if (line.substr(0, runner_line_prefix.size()) != runner_line_prefix) kept += line;
    printed.remove_prefix(line.size());
  }
  return kept;
}

} // namespace judge
