// One checked call of solve(): fresh guarded buffers, inputs from the check's seed, poisoned outputs;
// afterwards errors, guards, inputs, banned libraries and threads are examined and the outputs are
// written to the scratch folder for the judge to compare.
#pragma once

#include "protocol.hpp"
#include "runner_context.hpp"

namespace judge_harness {

/// Runs check `index` of `request`. A CUDA failure (the learner's or the harness's) becomes a
/// cuda_error answer; throws only for harness failures unrelated to CUDA (an unwritable output file).
check_answer run_check(const case_request& request, std::size_t index, runner_context& context);

/// "<scratch>/<case_index>.<check>.<buffer>.bin"
std::string output_path(const std::string& scratch, std::int64_t case_index, std::size_t check,
                        const std::string& buffer);

} // namespace judge_harness
