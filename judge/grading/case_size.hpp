// How large a graded case is and whether it has ragged tails: what the hints compare cases by, and what
// decides which cases still run once a solution has failed (cases_after_failure.hpp).
#pragma once

#include "judge/record/grade_result.hpp"

#include <cstdint>
#include <vector>

namespace judge {

/// Sizes that are all multiples of this have no ragged tail for a tiled kernel (a warp's width).
inline constexpr std::int64_t tail_free_multiple = 32;

/// Whether every size is a multiple of tail_free_multiple (false for a case without sizes).
bool aligned_sizes(const std::vector<std::int64_t>& sizes);
inline bool aligned(const case_result& c) { return aligned_sizes(c.sizes); }

/// The product of a case's sizes: how large it is, for comparing cases of one problem.
double size_volume(const std::vector<std::int64_t>& sizes);
inline double case_volume(const case_result& c) { return size_volume(c.sizes); }

} // namespace judge
