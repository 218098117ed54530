#include "judge/sanitizer/sanitizer_expectation.hpp"

#include <regex>
#include <sstream>
#include <stdexcept>

namespace judge {

std::optional<sanitizer_expectation> find_sanitizer_expectation(const std::string& source) {
  static const std::regex declared(R"(Expected sanitizer:\s*(.*?)\s*$)");
  static const std::regex parts(
      R"(^(memcheck|racecheck|initcheck)\s+(invalid read|invalid write|invalid atomic|race|uninitiali[sz]ed read|hardware exception)\s+at line\s+(\d+)$)");
  std::istringstream lines(source);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    std::smatch m;
    if (!std::regex_search(line, m, declared)) continue;
    const std::string text = m[1];
    std::smatch p;
    if (!std::regex_match(text, p, parts))
      throw std::runtime_error("line " + std::to_string(number) + ": \"Expected sanitizer: " + text +
                               "\" is not \"<memcheck|racecheck|initcheck> <invalid read|invalid write|invalid "
                               "atomic|race|uninitialised read|hardware exception> at line <N>\"");
    sanitizer_expectation e;
    e.text = text;
    e.tool = *tool_from_name(p[1]);
    const std::string what = p[2];
    if (what.rfind("invalid ", 0) == 0) {
      e.kind = sanitizer_error_kind::invalid_access;
      const std::string access = what.substr(8);
      e.access = access == "read" ? access_kind::read : access == "write" ? access_kind::write : access_kind::atomic;
    } else if (what == "race") {
      e.kind = sanitizer_error_kind::shared_race;
    } else if (what == "hardware exception") {
      e.kind = sanitizer_error_kind::hardware_exception;
    } else {
      e.kind = sanitizer_error_kind::uninitialised_read;
    }
    e.line = std::stoi(p[3]);
    return e;
  }
  return std::nullopt;
}

bool sanitizer_found(const std::vector<sanitizer_run>& runs, const sanitizer_expectation& expected) {
  for (const sanitizer_run& run : runs) {
    if (run.tool != expected.tool) continue;
    for (const sanitizer_finding& f : run.findings) {
      if (f.kind != expected.kind) continue;
      if (expected.access != access_kind::unknown && f.access != expected.access) continue;
      if (f.at.line == expected.line || f.other_at.line == expected.line) return true;
    }
  }
  return false;
}

bool sanitizer_checked(const std::vector<sanitizer_run>& runs) {
  for (const sanitizer_run& run : runs)
    if (run.state == sanitizer_state::ran || run.state == sanitizer_state::timed_out) return true;
  return false;
}

} // namespace judge
