// Advice on an accepted, timed case beyond its verdict and figures.
#pragma once

#include "grade_result.hpp"

#include <string>

namespace judge {

/// What the timing of a case suggests to improve, or empty: host time far above GPU time means solve()
/// spends its time outside kernels.
std::string timing_feedback(const timing_summary& timing);

} // namespace judge
