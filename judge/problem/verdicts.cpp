#include "judge/problem/verdicts.hpp"

#include <array>
#include <regex>
#include <sstream>

namespace judge {
namespace {

struct verdict_names {
  verdict v;
  const char* short_name;
  const char* folder;
};

// One row per verdict, in the enum's order: every name of a verdict is here and nowhere else.
constexpr std::array<verdict_names, 6> names{{
    {verdict::accepted, "AC", "accepted"},
    {verdict::wrong_answer, "WA", "wrong_answer"},
    {verdict::compile_error, "CE", "compile_error"},
    {verdict::run_time_error, "RTE", "run_time_error"},
    {verdict::time_limit_exceeded, "TLE", "time_limit_exceeded"},
    {verdict::internal_error, "IE", "internal_error"},
}};

const verdict_names& row(verdict v) {
  for (const verdict_names& r : names)
    if (r.v == v) return r;
  return names.back(); // not reached: every enumerator has a row
}

} // namespace

std::string short_name(verdict v) { return row(v).short_name; }

std::string folder_name(verdict v) { return row(v).folder; }

std::optional<verdict> verdict_from_short_name(const std::string& name) {
  for (const verdict_names& r : names)
    if (name == r.short_name) return r.v;
  return std::nullopt;
}

std::optional<verdict> verdict_from_folder(const std::string& folder) {
  for (const verdict_names& r : names)
    if (folder == r.folder) return r.v;
  return std::nullopt;
}

bool caught_when_timed(const std::string& source) {
  static const std::regex declaration(R"(^\s*//\s*Caught when timed\.?\s*$)");
  std::istringstream lines(source);
  std::string line;
  while (std::getline(lines, line))
    if (std::regex_match(line, declaration)) return true;
  return false;
}

} // namespace judge
