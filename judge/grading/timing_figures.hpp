// The figures of a timed case: statistics over the runner's samples, and speed in the problem's unit.
#pragma once

#include "judge/record/grade_result.hpp"
#include "judge/problem/problem.hpp"
#include "judge/problem/cases.hpp"
#include "common/wire.hpp"

#include <optional>

namespace judge {

/// Statistics over the samples of `t` taken at an unthrottled clock (over all of them when every one
/// was throttled, flagged by the discarded count); nullopt when there are no samples.
std::optional<timing_summary> summarise(const judge_wire::timing_answer& t);

/// Speed of one call of case `c` that took `ms` milliseconds, in the spec's unit (GFLOPS or GB/s); 0
/// when `ms` is not positive.
double speed_of(const problem_spec& spec, const test_case& c, double ms);

} // namespace judge
