// One checked call of solve(): fresh guarded buffers, inputs from the check's seed, poisoned outputs;
// afterwards errors, guards, inputs, banned libraries and threads are examined and the outputs are
// written, under the names the judge chose, into the scratch folder for the judge to compare.
#pragma once

#include "harness/call/runner_context.hpp"
#include "common/wire.hpp"

#include <cstddef>

namespace judge_harness {

using judge_wire::call_status;
using judge_wire::case_request;

/// What one checked call did: the answer for the judge, and what only the runner needs to know.
struct check_outcome {
  judge_wire::check_answer answer;
  bool context_lost = false; ///< the CUDA context is unusable: the runner must exit(1) after answering
};

/// Runs check `index` of `request`. A CUDA failure (the learner's or the harness's) becomes a
/// cuda_error answer; throws only for harness failures unrelated to CUDA (an output file that cannot
/// be created new beneath context.scratch_fd).
check_outcome run_check(const case_request& request, std::size_t index, runner_context& context);

} // namespace judge_harness
