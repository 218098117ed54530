// Loading the learner's shared object (solution.so) into the runner, after the harness has set up CUDA,
// CUPTI and its channels, and finding its solve().
#pragma once

#include "harness/call/solve_abi.h"

#include <string>

namespace judge_harness {

/// dlopen()s `path` with RTLD_NOW | RTLD_LOCAL (every symbol resolved now; none of the object's
/// definitions visible to the harness or later lookups, so it cannot replace a function the harness
/// calls) and returns its `solve`. The object's static constructors run here. The object stays loaded
/// for the life of the process. Throws std::runtime_error naming the reason ("cannot load the
/// solution: ...", "the solution defines no solve()").
judge_solve_fn load_solution(const std::string& path);

} // namespace judge_harness
