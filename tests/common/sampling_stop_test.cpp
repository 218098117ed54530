#include "catch.hpp"
#include "common/sampling_stop.hpp"

#include <vector>

using judge_timing::sampling_stop;
using judge_wire::stop_reason;

namespace {
judge_wire::timing_spec spec() { return {}; } // 3 s budget, 16 samples and 0.1 s at least, 2000 at most, ±0.25%

/// `n` kept samples of `ms`, every 7th 2% slower: a median known to well within 0.25% from 16 samples on.
std::vector<double> steady(std::size_t n, double ms) {
  std::vector<double> v;
  for (std::size_t i = 0; i < n; ++i) v.push_back(i % 7 == 0 ? ms * 1.02 : ms);
  return v;
}
} // namespace

TEST_CASE("sampling goes on until min_samples and min_s while the budget lasts", "[sampling_stop]") {
  CHECK_FALSE(sampling_stop(spec(), 15, 1.0, 1.5, steady(15, 1.0)));
  CHECK_FALSE(sampling_stop(spec(), 64, 0.05, 0.2, steady(64, 1.0))); // 0.1 s of sampling not reached
}

TEST_CASE("a slow call whose median is known stops at the first look, 16 samples", "[sampling_stop]") {
  // matmul's naive step on 256 x 6144 x 4096: 27 ms a call, 0.05% noise. 16 samples say its median to
  // within 0.25%; the 64 it took under a minimum of 50 cost 1.7 s and said the same (docs/timing.md).
  std::vector<double> slow;
  for (int i = 0; i < 16; ++i) slow.push_back(26.9 * (1.0 + 0.0005 * ((i * 7) % 5 - 2)));
  REQUIRE(judge_stats::median_relative_half_width(slow) < spec().target_precision);
  CHECK(sampling_stop(spec(), 16, 0.45, 0.5, slow) == stop_reason::precision);
  // The same samples before 0.1 s of sampling (a fast call) do not stop it: time shows clock effects.
  CHECK_FALSE(sampling_stop(spec(), 16, 0.02, 0.05, slow));
}

TEST_CASE("a noisy median is not stopped at the first look", "[sampling_stop]") {
  // 2% noise: 16 samples put the median's 95% interval well beyond 0.25%.
  std::vector<double> noisy;
  for (int i = 0; i < 16; ++i) noisy.push_back(1.0 + 0.02 * ((i * 5) % 9 - 4) / 4.0);
  REQUIRE(judge_stats::median_relative_half_width(noisy) > spec().target_precision);
  CHECK_FALSE(sampling_stop(spec(), 16, 0.5, 0.6, noisy));
}

TEST_CASE("a precise median stops sampling, looked at every 16 kept samples", "[sampling_stop]") {
  CHECK(sampling_stop(spec(), 64, 0.5, 0.7, steady(64, 1.0)) == stop_reason::precision);
  CHECK_FALSE(sampling_stop(spec(), 65, 0.5, 0.7, steady(65, 1.0))); // 65 kept: not looked at
  CHECK_FALSE(sampling_stop(spec(), 17, 0.5, 0.7, steady(17, 1.0)));
}

TEST_CASE("the budget ends sampling once min_samples are in, and at max_samples it ends", "[sampling_stop]") {
  std::vector<double> noisy;
  for (int i = 0; i < 60; ++i) noisy.push_back(1.0 + (i % 2 ? 0.3 : -0.3)); // no precise median
  CHECK_FALSE(sampling_stop(spec(), 60, 2.0, 2.9, noisy));
  CHECK(sampling_stop(spec(), 60, 2.5, 3.1, noisy) == stop_reason::budget);
  judge_wire::timing_spec few = spec();
  few.max_samples = 60;
  CHECK(sampling_stop(few, 60, 1.0, 1.2, noisy) == stop_reason::max_samples);
}

TEST_CASE("past the budget a slow solution's case stops at the floor of samples, not at min_samples",
          "[sampling_stop]") {
  // 190 ms a call: 16 samples would take 3 s of a 3 s budget, its warm-up beside them.
  CHECK_FALSE(sampling_stop(spec(), 9, 1.7, 3.3, steady(9, 190.0)));
  CHECK(sampling_stop(spec(), judge_timing::budget_floor_samples, 1.9, 3.5, steady(10, 190.0)) == stop_reason::budget);
  // Within the budget, min_samples still holds.
  CHECK_FALSE(sampling_stop(spec(), 12, 2.3, 2.9, steady(12, 190.0)));
  CHECK(spec().min_samples > judge_timing::budget_floor_samples);
  // A spec whose minimum is below the floor keeps its own minimum.
  judge_wire::timing_spec low = spec();
  low.min_samples = 5;
  CHECK(sampling_stop(low, 5, 0.95, 3.2, steady(5, 190.0)) == stop_reason::budget);
}

TEST_CASE("the default minimum of samples is the precision rule's first look", "[sampling_stop]") {
  // Fewer, and the minimum would mean nothing (the rule looks no sooner); more, and a slow, steady call
  // would take samples its known median does not need.
  CHECK(static_cast<std::size_t>(spec().min_samples) == judge_timing::precision_look_every);
}
