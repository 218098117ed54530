// Which cases still run once a case has failed. The first failing case decides the verdict
// (decide_solution), so what follows can only explain it: the cases no larger than the failing one run
// (cheap, and they give the hints their contrasts: right on small cases, wrong on a ragged one), and so
// does one aligned case where a ragged case failed before any aligned case was right (the ragged-tail
// hint's evidence). Larger cases and the robustness cases are not run: they would cost a failing
// solution the most time and change nothing. A hang ends the grading: nothing after it runs.
#pragma once

#include "judge/record/grade_result.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace judge {

class cases_after_failure {
public:
  /// `failed`: the first case that failed; `aligned_right_before`: whether an aligned case was right
  /// before it.
  cases_after_failure(const case_result& failed, bool aligned_right_before);

  /// Whether a deciding case of these sizes still runs; a yes for the ragged-tail hint's aligned case is
  /// given once.
  bool runs(const std::vector<std::int64_t>& sizes);
  /// Takes note of a case that ran after the failure.
  void ran(const case_result& c);
  /// The name of the case that failed first.
  const std::string& failed_case() const { return m_failed_name; }
  /// Why the cases that did not run were left out, for the report.
  std::string reason() const;

private:
  std::string m_failed_name;
  verdict m_failed_verdict;
  double m_failed_volume;
  bool m_hung;
  bool m_wants_aligned; ///< a ragged case failed and no aligned case was right yet
};

} // namespace judge
