#include "judge/report/cases_not_run_text.hpp"

#include <fmt/format.h>

namespace judge {

namespace {
constexpr std::size_t max_named = 6; ///< names at most this many cases, then a count
} // namespace

std::string cases_not_run_line(const solution_result& r) {
  if (r.cases_not_run.empty()) return "";
  std::string names;
  for (std::size_t i = 0; i < r.cases_not_run.size() && i < max_named; ++i) names += (i ? ", " : "") + r.cases_not_run[i];
  if (r.cases_not_run.size() > max_named) names += fmt::format(" and {} more", r.cases_not_run.size() - max_named);
  const std::string count = r.cases_not_run.size() == 1 ? "1 case" : fmt::format("{} cases", r.cases_not_run.size());
  return fmt::format("not run: {} ({}){}", count, names, r.cases_not_run_reason.empty() ? "" : ": " + r.cases_not_run_reason);
}

} // namespace judge
