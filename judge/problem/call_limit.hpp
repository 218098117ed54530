// How long one checked call of solve() may take on a case. A problem gives every case the same limit,
// limits.case_seconds, unless it sets limits.slowest_speed: then a case with little work gives a call
// less, so that a solution that hangs on a small case is stopped in seconds rather than at a limit sized
// for the largest case, and a slow but honest solution still has its case's work at that speed.
#pragma once

#include "judge/problem/cases.hpp"
#include "judge/problem/problem.hpp"

namespace judge {

/// [s] The wall-time limit of one checked call on `c`: limits.case_seconds, or, where limits.slowest_speed
/// is set, the case's work (work.flops or work.bytes, by the problem's speed unit) at that speed, no less
/// than limits.min_case_seconds and no more than limits.case_seconds.
double call_limit_seconds(const problem_spec& spec, const test_case& c);

} // namespace judge
