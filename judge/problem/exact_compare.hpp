// Whether a case's data can make exact answers possible (`compare: exact`, docs/problem-format.md): float
// arithmetic on whole numbers is exact while every partial sum stays below 2^24, so only whole-number
// inputs, and with a sum rule only sums that cannot reach 2^24, can be held to the reference bit for bit.
#pragma once

#include "judge/problem/problem.hpp"
#include "judge/problem/cases.hpp"

#include <string>

namespace judge {

/// [elements] Float32 holds every whole number up to 2^24 and no partial sum of whole numbers below it
/// is rounded: the bound of an exact sum.
constexpr double exact_sum_limit = 16777216.0;

/// Why case `c` of `spec` cannot be compared exactly, in words naming the buffer or the bound; "" when it
/// can. Every generated float buffer must hold whole numbers (explicit data, or a distribution of
/// judge_data::whole_values); with a `tolerance.sum` rule of T terms, T times the product of the `of`
/// buffers' largest magnitudes (without `of`: the largest magnitude of the float inputs) must stay below
/// 2^24. That the outputs themselves are sums of those terms (no division, no square root) is the
/// author's to know: the judge cannot see it.
std::string why_not_exact(const problem_spec& spec, const test_case& c);

} // namespace judge
