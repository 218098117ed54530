#include "harness/timing/solve_timer.hpp"

#include "harness/cuda/cuda_check.hpp"
#include "harness/cuda/device_memory.hpp"
#include "harness/cuda/generate.cuh"

#include <exception>

namespace judge_harness {
namespace {

/// Why CUPTI cannot time a call as a timed sample is timed (a tiny kernel behind the marker); empty
/// when it can. Some platforms accept the calls and then deliver nothing, or no correlation ids.
std::string why_cupti_cannot_time(cupti_timer& timer) {
  device_memory scratch(256 * sizeof(std::uint32_t));
  JUDGE_CUDA_CHECK(cudaDeviceSynchronize());
  timer.discard();
  timer.enqueue_marker();
  JUDGE_CUDA_CHECK(cudaDeviceSynchronize());
  const std::uint64_t begin = timer.now_ns();
  fill_words_on_device(scratch.as<std::uint32_t>(), 0u, 256, nullptr);
  const std::uint64_t returned = timer.now_ns();
  JUDGE_CUDA_CHECK(cudaDeviceSynchronize());
  const std::uint64_t end = timer.now_ns();
  const activity_span span = timer.measure(begin, returned, end);
  if (span.records == 0) return "CUPTI delivered no record of a test kernel";
  if (!span.marker_seen) return "CUPTI gave the marker kernel no correlation id of its launch";
  return "";
}

} // namespace

solve_timer::solve_timer(timing_method requested) {
  if (requested == timing_method::events) return;
  try {
    auto timer = std::make_unique<cupti_timer>();
    m_fallback_reason = why_cupti_cannot_time(*timer);
    if (!m_fallback_reason.empty()) return;
    m_cupti = std::move(timer);
    m_method = timing_method::cupti;
  } catch (const cuda_error&) {
    throw; // the device itself failed: not a reason to change timing method
  } catch (const std::exception& e) {
    m_fallback_reason = std::string("CUPTI unavailable: ") + e.what();
  }
}

void solve_timer::enqueue_marker() {
  if (m_cupti) m_cupti->enqueue_marker();
}

void solve_timer::before_solve() {
  if (m_cupti)
    m_begin_ns = m_cupti->now_ns();
  else
    m_events.record_start(nullptr);
}

void solve_timer::after_return() {
  if (m_cupti)
    m_returned_ns = m_cupti->now_ns();
  else
    m_events.record_stop(nullptr);
}

void solve_timer::after_sync() {
  if (m_cupti) m_end_ns = m_cupti->now_ns();
}

sample_time solve_timer::result() {
  sample_time t;
  if (m_cupti) {
    const activity_span span = m_cupti->measure(m_begin_ns, m_returned_ns, m_end_ns);
    t.gpu_ms = span.gpu_ms;
    t.other_streams_after_return = span.other_streams_after_return;
    t.kernels = span.kernels;
  } else {
    t.gpu_ms = m_events.elapsed_ms();
  }
  return t;
}

void solve_timer::discard_history() {
  if (m_cupti) m_cupti->discard();
}

} // namespace judge_harness
