// GPU time of one call of solve() from CUPTI activity records: every kernel, copy and memset on every
// stream, timestamped by the GPU, so neither launch latency nor work on a learner's own streams escapes.
#pragma once

#include "common/wire.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

struct CUpti_Subscriber_st; // cupti_callbacks.h's handle, so that this header needs no CUPTI include

namespace judge_harness {

/// The GPU work of one call, as CUPTI recorded it.
struct activity_span {
  double gpu_ms = 0.0;     ///< [ms] latest end - earliest start of the call's records; 0 when there are none
  std::size_t records = 0; ///< kernels, copies and memsets counted
  /// Some of the call's work ran on a stream other than the legacy default stream and was still
  /// running when solve() returned (it was timed anyway: the harness synchronises the whole device).
  bool other_streams_after_return = false;
  /// The marker kernel enqueued by enqueue_marker() was among the records and opened the window.
  bool marker_seen = false;
  /// The learner's kernels of the call (none of the judge's, named judge_*): name, grid, block, shared
  /// memory and registers, one per distinct name and configuration, at most
  /// judge_wire::max_kernel_launches, in launch order.
  std::vector<judge_wire::kernel_launch> kernels;
};

/// Owns the process's CUPTI activity tracing and its one callback subscriber (CUPTI allows one of each
/// per process, hence neither copyable nor movable, and at most one alive).
class cupti_timer {
public:
  /// Subscribes to API callbacks, registers the record buffers and enables kernel, memcpy and memset
  /// records. Throws
  /// std::runtime_error with CUPTI's reason when it cannot (another profiler attached, no CUPTI support).
  cupti_timer();
  ~cupti_timer();

  cupti_timer(const cupti_timer&) = delete;
  cupti_timer& operator=(const cupti_timer&) = delete;

  /// Enqueues the marker kernel on the legacy stream; its end opens the next measured window. The
  /// marker is recognised by the correlation id of this very launch (seen through CUPTI's API
  /// callbacks, on only while it is enqueued), never by its name.
  void enqueue_marker();

  /// [ns] now, on the clock CUPTI stamps its records with.
  std::uint64_t now_ns() const;

  /// Delivers the records of everything that has completed, measures those of the call between
  /// `begin_ns` (taken right before solve()), `returned_ns` (right after it returned) and `end_ns`
  /// (right after the synchronisation that followed), then forgets every record delivered so far.
  /// The device must have been synchronised before `begin_ns` and before `end_ns`.
  activity_span measure(std::uint64_t begin_ns, std::uint64_t returned_ns, std::uint64_t end_ns);

  /// Delivers and forgets every record of completed work (keeps memory bounded between timings).
  void discard();

private:
  CUpti_Subscriber_st* m_subscriber = nullptr;
};

} // namespace judge_harness
