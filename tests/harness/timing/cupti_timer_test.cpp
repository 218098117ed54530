// The CUPTI timer alone on the GPU: work of a known duration (a warp spinning on the global timer) is
// measured as that long, as CUDA events measure it, and the window holds exactly the call's work.
#include "catch.hpp"

#include "harness/timing/cupti_timer.hpp"
#include "harness/timing/event_timer.hpp"
#include "test_kernels.cuh"

#include <cstdint>
#include <stdexcept>
#include <string>

using judge_harness::activity_span;
using judge_harness::cupti_timer;

namespace {

constexpr std::uint64_t ms_ns = 1000 * 1000;

/// One measured call as the timing loop brackets it: the judge's own work first, then the marker, a
/// synchronisation, and `call` between the three timestamps.
template <class Call> activity_span measure_call(cupti_timer& timer, const Call& call) {
  gpu_test::launch_spin(ms_ns / 10, nullptr); // the judge's work before the call, on the legacy stream
  timer.enqueue_marker();
  JUDGE_CUDA_CHECK(cudaDeviceSynchronize());
  const std::uint64_t begin = timer.now_ns();
  call();
  const std::uint64_t returned = timer.now_ns();
  JUDGE_CUDA_CHECK(cudaDeviceSynchronize());
  const std::uint64_t end = timer.now_ns();
  return timer.measure(begin, returned, end);
}

/// A timer whose kernels are loaded (lazy module loading makes a first launch pay for its load).
void warm_up(cupti_timer& timer) {
  gpu_test::launch_spin(1000, nullptr);
  timer.enqueue_marker();
  JUDGE_CUDA_CHECK(cudaDeviceSynchronize());
  timer.discard();
}

} // namespace

TEST_CASE("the CUPTI timer measures a kernel that spins for 2 ms as about 2 ms, as CUDA events do", "[gpu][cupti]") {
  cupti_timer timer;
  warm_up(timer);
  judge_harness::event_timer events;
  const activity_span span = measure_call(timer, [&] {
    events.record_start(nullptr);
    gpu_test::launch_spin(2 * ms_ns, nullptr);
    events.record_stop(nullptr);
  });
  const double events_ms = events.elapsed_ms();
  CAPTURE(span.gpu_ms, events_ms);
  CHECK(span.marker_seen);
  CHECK(span.records == 1);
  // The kernel runs for at least 2 ms of the GPU's timer, and a kernel's own record adds no launch latency.
  CHECK(span.gpu_ms >= 1.98);
  CHECK(span.gpu_ms <= 2.2);
  // Events on the stream bracket the same kernel, plus what lies between an event and a launch.
  CHECK(span.gpu_ms >= 0.8 * events_ms);
  CHECK(span.gpu_ms <= 1.05 * events_ms);
  CHECK_FALSE(span.other_streams_after_return);
  REQUIRE(span.kernels.size() == 1);
  CHECK(span.kernels[0].name.find("spin_for_ns") != std::string::npos);
  CHECK(span.kernels[0].blocks() == 1);
  CHECK(span.kernels[0].block[0] == 32);
  CHECK(span.kernels[0].threads_per_block() == 32);
}

TEST_CASE("the CUPTI timer leaves the judge's work before the marker out of the call's window", "[gpu][cupti]") {
  cupti_timer timer;
  warm_up(timer);
  gpu_test::launch_spin(3 * ms_ns, nullptr); // a long flush, say: before the window opens
  const activity_span span = measure_call(timer, [] { gpu_test::launch_spin(ms_ns, nullptr); });
  CAPTURE(span.gpu_ms);
  CHECK(span.marker_seen);
  CHECK(span.records == 1);
  CHECK(span.gpu_ms >= 0.99);
  CHECK(span.gpu_ms < 1.2);
}

TEST_CASE("the CUPTI timer spans a call's kernels from the first start to the last end, listing a launch once",
          "[gpu][cupti]") {
  cupti_timer timer;
  warm_up(timer);
  const activity_span span = measure_call(timer, [] {
    gpu_test::launch_spin(ms_ns, nullptr);
    gpu_test::launch_spin(ms_ns, nullptr);
  });
  CAPTURE(span.gpu_ms);
  CHECK(span.records == 2);
  CHECK(span.gpu_ms >= 1.98);
  CHECK(span.gpu_ms < 2.4);
  CHECK(span.kernels.size() == 1); // the same name and configuration twice
}

TEST_CASE("the CUPTI timer counts work left running on another stream when the call returned, and says so",
          "[gpu][cupti]") {
  cupti_timer timer;
  warm_up(timer);
  cudaStream_t side = nullptr;
  JUDGE_CUDA_CHECK(cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking));
  const activity_span span = measure_call(timer, [&] { gpu_test::launch_spin(2 * ms_ns, side); });
  JUDGE_CUDA_CHECK(cudaStreamDestroy(side));
  CAPTURE(span.gpu_ms);
  CHECK(span.records == 1);
  CHECK(span.gpu_ms >= 1.98);
  CHECK(span.gpu_ms <= 2.2);
  CHECK(span.other_streams_after_return);
}

TEST_CASE("a second CUPTI timer in the same process is refused while the first lives", "[gpu][cupti]") {
  cupti_timer timer;
  CHECK_THROWS_AS(cupti_timer(), std::logic_error);
}
