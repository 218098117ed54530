// Kernels of the cold-L2 protocol: the read that evicts L2, and the marker that opens a timed window.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace judge_harness {

/// Enqueues a read of `bytes` bytes at `data` (16-byte aligned): afterwards L2 holds clean lines of that
/// buffer only, so the next kernel pays neither for stale hits nor for writing back dirty lines.
void enqueue_read_through(const void* data, std::size_t bytes, unsigned* sink, cudaStream_t stream);

/// Enqueues the one-thread marker kernel whose end, on the GPU's own clock, opens a timed window.
/// Its name means nothing to the timer (a learner may name a kernel alike): cupti_timer::enqueue_marker
/// calls this and knows the marker by the correlation id of the launch.
void enqueue_timing_marker(cudaStream_t stream);

} // namespace judge_harness
