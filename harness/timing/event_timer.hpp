// CUDA events as owned resources, and the start/stop pair of the "events" timing method.
#pragma once

#include "harness/cuda/cuda_check.hpp"

#include <utility>

namespace judge_harness {

/// One cudaEvent_t with timing enabled, destroyed with its owner; movable, never copied.
class cuda_event {
public:
  cuda_event() { JUDGE_CUDA_CHECK(cudaEventCreate(&m_event)); }
  ~cuda_event() {
    if (m_event != nullptr) JUDGE_CUDA_CHECK_NOTHROW(cudaEventDestroy(m_event));
  }
  cuda_event(const cuda_event&) = delete;
  cuda_event& operator=(const cuda_event&) = delete;
  cuda_event(cuda_event&& other) noexcept : m_event(std::exchange(other.m_event, nullptr)) {}
  cuda_event& operator=(cuda_event&& other) noexcept {
    std::swap(m_event, other.m_event);
    return *this;
  }

  cudaEvent_t get() const noexcept { return m_event; }

private:
  cudaEvent_t m_event = nullptr;
};

/// Elapsed GPU time between two events recorded on one stream. Work on streams that do not
/// synchronise with that stream escapes it: the reason CUPTI is the default method.
class event_timer {
public:
  void record_start(cudaStream_t stream) { JUDGE_CUDA_CHECK(cudaEventRecord(m_start.get(), stream)); }
  void record_stop(cudaStream_t stream) { JUDGE_CUDA_CHECK(cudaEventRecord(m_stop.get(), stream)); }

  /// [ms] between the two recorded events; call once the stop event has completed.
  double elapsed_ms() const {
    float ms = 0.0f;
    JUDGE_CUDA_CHECK(cudaEventElapsedTime(&ms, m_start.get(), m_stop.get()));
    return ms;
  }

private:
  cuda_event m_start;
  cuda_event m_stop;
};

} // namespace judge_harness
