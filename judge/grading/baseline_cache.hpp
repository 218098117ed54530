// The baseline's run kept on disk between judge runs: its timings, the cases where it disagrees with the
// CPU reference and its outputs (the second reference). Timing cuBLAS again on every `judge` call cost a
// runner start, every case's checks and two timed cases (about a second) for figures that agree within
// 0.4% from run to run on one GPU (docs/timing.md). An entry is keyed by everything its figures depend on
// (the GPU by UUID, the baseline's build, the runner, the cases and their seeds, the timing options) and
// is used for `max_age` only; the report says when it was timed.
#pragma once

#include "judge/grading/baseline.hpp"

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace judge {

/// How long a baseline measured on one GPU stands for it: long enough for an instructor's afternoon of
/// grading, short enough that a changed clock or driver is noticed the same day.
constexpr std::chrono::seconds baseline_max_age{3600};

/// Outputs above this are not kept: the baseline then runs every time. It holds every problem's outputs of
/// its deciding cases, two checked calls each (transpose's are the largest, 1.2 GiB: a baseline that is run
/// again costs a class seconds before its first verdict, where reading them back costs a fraction of one).
constexpr std::uintmax_t baseline_cache_output_cap = std::uintmax_t{2} << 30;

/// A stored baseline run and when it was timed.
struct cached_baseline {
  baseline_record record;
  std::int64_t timed_at = 0; ///< [s] since the epoch
};

/// Loads the entry `key` from `folder`, or nullopt when there is none, it is older than `max_age` (or
/// from the future), or it cannot be read whole (a damaged entry is ignored, never trusted).
std::optional<cached_baseline> load_baseline(const std::filesystem::path& folder, const std::string& key,
                                             std::chrono::seconds max_age);

/// Stores `record` as the entry `key` in `folder`, timed now, published by one rename so a concurrent judge
/// sees all of it or none. Best effort: returns false (and stores nothing) when the folder cannot be
/// written or the outputs exceed `cap` bytes.
bool store_baseline(const std::filesystem::path& folder, const std::string& key, const baseline_record& record,
                    std::uintmax_t cap = baseline_cache_output_cap);

} // namespace judge
