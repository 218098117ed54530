#include "judge/grading/cases_after_failure.hpp"

#include "judge/grading/case_size.hpp"
#include "judge/problem/verdicts.hpp"

#include <fmt/format.h>

namespace judge {

cases_after_failure::cases_after_failure(const case_result& failed, bool aligned_right_before)
    : m_failed_name(failed.name), m_failed_verdict(failed.v), m_failed_volume(case_volume(failed)),
      m_hung(failed.v == verdict::time_limit_exceeded),
      m_wants_aligned(!aligned_right_before && !failed.sizes.empty() && !aligned(failed)) {}

bool cases_after_failure::runs(const std::vector<std::int64_t>& sizes) {
  if (m_hung) return false;
  if (size_volume(sizes) <= m_failed_volume) return true;
  if (m_wants_aligned && aligned_sizes(sizes)) {
    m_wants_aligned = false;
    return true;
  }
  return false;
}

void cases_after_failure::ran(const case_result& c) {
  if (aligned(c) && c.v == verdict::accepted) m_wants_aligned = false;
}

std::string cases_after_failure::reason() const {
  if (m_hung)
    return fmt::format("case {} ran out of time, and a solution that hangs once would hang again: nothing after it "
                       "runs",
                       m_failed_name);
  return fmt::format("case {} decided the verdict ({}); after a failure only the cases no larger than it run (and "
                     "an aligned one, where a ragged case failed), never the robustness cases: the rest would "
                     "change nothing",
                     m_failed_name, short_name(m_failed_verdict));
}

} // namespace judge
