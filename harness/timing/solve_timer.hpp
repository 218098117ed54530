// The GPU time of one call of solve(), by the method the judge asked for (the runner's --timing flag):
// CUPTI activity records, or CUDA events on the legacy stream. Asked for CUPTI, it falls back to events
// when CUPTI cannot start (e.g. under a profiler) and says why. Nothing in the environment changes it:
// the judge compares a solution's method with the baseline's.
#pragma once

#include "harness/timing/cupti_timer.hpp"
#include "harness/timing/event_timer.hpp"
#include "common/wire.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace judge_harness {

// The method is reported in "hello" and with every timing (common/wire.hpp).
using judge_wire::timing_method;

/// One sample's GPU time.
struct sample_time {
  double gpu_ms = 0.0;                            ///< [ms]
  bool other_streams_after_return = false;        ///< only CUPTI can tell; always false for events
  std::vector<judge_wire::kernel_launch> kernels; ///< the learner's launches (activity_span); none for events
};

class solve_timer {
public:
  /// Sets up `requested`; needs a current CUDA context (it proves CUPTI works by timing a tiny kernel
  /// behind a marker).
  explicit solve_timer(timing_method requested);

  timing_method method() const noexcept { return m_method; }
  /// Why the events method is used though CUPTI was asked for; empty otherwise.
  const std::string& fallback_reason() const noexcept { return m_fallback_reason; }

  /// CUPTI only: enqueues the marker whose end opens the window of the next timed call.
  void enqueue_marker();
  /// Right before solve() is called. Events: records the start event on the legacy stream, so the
  /// caller enqueues the L2 flush just before this to hide the launch latency behind it.
  void before_solve();
  /// Right after solve() returned, before the harness synchronises.
  void after_return();
  /// Right after the cudaDeviceSynchronize() that follows solve().
  void after_sync();
  /// The GPU time of the call bracketed by the three calls above.
  sample_time result();

  /// Forgets everything recorded so far (CUPTI keeps records of checked calls too).
  void discard_history();

private:
  timing_method m_method = timing_method::events;
  std::string m_fallback_reason;
  std::unique_ptr<cupti_timer> m_cupti;
  event_timer m_events;
  std::uint64_t m_begin_ns = 0;
  std::uint64_t m_returned_ns = 0;
  std::uint64_t m_end_ns = 0;
};

} // namespace judge_harness
