// Advice on an accepted, timed case beyond its verdict and figures.
#pragma once

#include "judge/record/grade_result.hpp"

#include <string>

namespace judge {

/// Whether solve()'s host time is far above its GPU time (twice, plus 50 µs of launch and
/// synchronisation slack): it then spends its time outside kernels.
bool host_time_dominates(const timing_summary& timing);

/// What the timing of a case suggests to improve, or empty: host time far above GPU time means solve()
/// spends its time outside kernels.
std::string timing_feedback(const timing_summary& timing);

/// Empty when the solution and the baseline were timed by the same method; otherwise says that they
/// were not, so that the "% of baseline" is left out (the runner could not use the judge's method for
/// one of them, e.g. CUPTI was held by a profiler).
std::string method_feedback(const timing_summary& solution, const timing_summary& baseline);

/// `a` and `b` as one text, "; " between them when both have words.
std::string join_feedback(const std::string& a, const std::string& b);

} // namespace judge
