// One timed call by each method the judge can ask for, bracketed as call_solve() brackets it.
#include "catch.hpp"

#include "harness/timing/solve_timer.hpp"
#include "test_kernels.cuh"

#include <cstdint>
#include <string>

using judge_harness::sample_time;
using judge_harness::solve_timer;
using judge_harness::timing_method;

namespace {

/// One call of 2 ms of GPU work, timed by `timer` as a timed sample is.
sample_time timed_spin(solve_timer& timer) {
  timer.enqueue_marker(); // nothing for events
  JUDGE_CUDA_CHECK(cudaDeviceSynchronize());
  timer.before_solve();
  gpu_test::launch_spin(2 * 1000 * 1000, nullptr);
  timer.after_return();
  JUDGE_CUDA_CHECK(cudaDeviceSynchronize());
  timer.after_sync();
  return timer.result();
}

} // namespace

TEST_CASE("the solve timer asked for CUPTI times with CUPTI, and a 2 ms call as about 2 ms", "[gpu][timing]") {
  solve_timer timer(timing_method::cupti);
  CAPTURE(timer.fallback_reason());
  REQUIRE(timer.method() == timing_method::cupti);
  CHECK(timer.fallback_reason().empty());
  timed_spin(timer); // loads the kernel
  timer.discard_history();
  const sample_time t = timed_spin(timer);
  CAPTURE(t.gpu_ms);
  CHECK(t.gpu_ms >= 1.98);
  CHECK(t.gpu_ms <= 2.2);
  REQUIRE(t.kernels.size() == 1);
  CHECK(t.kernels[0].name.find("spin_for_ns") != std::string::npos);
}

TEST_CASE("the solve timer asked for events times with events, and a 2 ms call as about 2 ms", "[gpu][timing]") {
  solve_timer timer(timing_method::events);
  CHECK(timer.method() == timing_method::events);
  CHECK(timer.fallback_reason().empty());
  timed_spin(timer);
  const sample_time t = timed_spin(timer);
  CAPTURE(t.gpu_ms);
  CHECK(t.gpu_ms >= 1.98);
  CHECK(t.gpu_ms <= 2.5);   // events add the launch between them
  CHECK(t.kernels.empty()); // only CUPTI sees launches
  CHECK_FALSE(t.other_streams_after_return);
}
