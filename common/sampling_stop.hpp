// When a case's timing stops taking samples: the rule harness/call/timing_loop.cpp follows, kept apart
// so that it is tested without a GPU (tests/common/sampling_stop_test.cpp).
#pragma once

#include "common/stats.hpp"
#include "common/wire.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace judge_timing {

/// The samples every timed case gets before its budget may end it, whatever the spec's minimum: a median
/// of fewer says little. Past the budget, min_samples yields to this: a solution whose call takes 400 ms
/// costs a case about its budget (10 samples in 4 s), not min_samples calls (16 in 6.4 s).
constexpr std::int64_t budget_floor_samples = 10;

/// How often the median's precision is looked at, in kept samples: sorting them after every call would
/// cost O(n log n) per sample. The default min_samples (common/wire.hpp) is the first look.
constexpr std::size_t precision_look_every = 16;

/// Whether sampling stops now, `taken` samples in (`kept` of them at an unthrottled clock, in ms),
/// `sampling_s` after sampling began and `elapsed_s` after the case's timing began (its warm-up
/// included), and why. Until min_samples and min_s are reached only the budget can end it, and only once
/// budget_floor_samples are in; then the median's precision, the budget, or max_samples.
inline std::optional<judge_wire::stop_reason> sampling_stop(const judge_wire::timing_spec& spec, std::int64_t taken,
                                                            double sampling_s, double elapsed_s,
                                                            const std::vector<double>& kept) {
  using judge_wire::stop_reason;
  const bool past_budget = elapsed_s > spec.budget_s;
  if (taken < spec.min_samples || sampling_s < spec.min_s) {
    if (past_budget && taken >= std::min<std::int64_t>(budget_floor_samples, spec.min_samples))
      return stop_reason::budget;
    return std::nullopt;
  }
  if (!kept.empty() && kept.size() % precision_look_every == 0 &&
      judge_stats::median_relative_half_width(kept) < spec.target_precision)
    return stop_reason::precision;
  if (past_budget) return stop_reason::budget;
  if (taken >= spec.max_samples) return stop_reason::max_samples;
  return std::nullopt;
}

} // namespace judge_timing
