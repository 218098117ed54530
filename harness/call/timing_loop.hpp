// Timing one case: warm-up, then adaptive sampling, every call on fresh inputs and checked against the
// problem's GPU reference (docs/architecture.md, "timing").
#pragma once

#include "harness/call/runner_context.hpp"
#include "harness/call/solve_call.hpp"
#include "common/wire.hpp"

namespace judge_harness {

/// What the timing of one case did: the answer for the judge, and what only the runner needs to know.
struct timing_outcome {
  judge_wire::timing_answer answer;
  bool context_lost = false; ///< the CUDA context is unusable: the runner must exit(1) after answering
  /// The judge's own buffers of the timing could not be allocated (cudaErrorMemoryAllocation): the caller
  /// decides whose memory that was.
  bool out_of_memory = false;
};

/// Times `work` (the bound solve() of trusted code, or a replay) on `request` (whose `timing` must be set). Warm-up calls run until at least 3 calls,
/// 100 ms and an SM clock of 90% of its maximum (waiting at most 2 s for the clock); then samples run
/// until min_samples and min_s (or, past budget_s, at least judge_timing::budget_floor_samples), and then
/// until the median of the unthrottled samples is as precise as target_precision
/// (judge_stats::median_relative_half_width), the wall time since the start exceeds budget_s, or
/// max_samples (common/sampling_stop.hpp). A CUDA failure becomes a cuda_error answer.
timing_outcome run_timing(const judge_wire::case_request& request, runner_context& context, call_work& work);

} // namespace judge_harness
