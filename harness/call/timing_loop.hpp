// Timing one case: warm-up, then adaptive sampling, every call on fresh inputs and checked against the
// problem's GPU reference (docs/architecture.md, "timing").
#pragma once

#include "protocol.hpp"
#include "runner_context.hpp"

namespace judge_harness {

/// Times solve() on `request` (whose `timing` must be set). Warm-up calls run until at least 3 calls,
/// 200 ms and an SM clock of 90% of its maximum (waiting at most 2 s for the clock); then samples run
/// until min_samples and either the noise of the unthrottled samples is below target_noise, the wall
/// time since the start exceeds budget_s, or max_samples. A CUDA failure becomes a cuda_error answer.
timing_answer run_timing(const case_request& request, runner_context& context);

} // namespace judge_harness
