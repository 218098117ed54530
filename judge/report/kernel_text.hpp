// The terminal's block under a solution about its kernels: what ptxas says each uses, how the timed
// run launched them (occupancy, waves), and the hints the figures point to.
#pragma once

#include "judge/record/grade_result.hpp"

#include <string>

namespace judge {

/// "" when there is nothing to say. Short: resources, the launches of the largest timed case, and each
/// hint's evidence; `explain` adds every timed case's launches and each hint's lesson.
std::string kernels_text(const solution_result& r, bool explain);

/// One launch: "name grid 64x32x1 block 16x16x1, 8192 B shared, 43 registers → 4 blocks/SM, 50%
/// occupancy (limited by registers), 0.12 waves"; occupancy "unknown" for a compute capability the judge
/// has no limits for.
std::string launch_text(const judge_wire::kernel_launch& launch, const device_info& device);

} // namespace judge
