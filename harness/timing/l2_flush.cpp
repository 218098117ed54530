#include "harness/timing/l2_flush.hpp"

#include "harness/timing/l2_flush_kernels.cuh"

namespace judge_harness {

l2_flush::l2_flush(std::size_t l2_bytes) : m_buffer(2 * l2_bytes), m_sink(sizeof(unsigned)) {
  // Written once so the reads below see defined memory.
  JUDGE_CUDA_CHECK(cudaMemset(m_buffer.data(), 0x3c, m_buffer.bytes()));
}

void l2_flush::enqueue(cudaStream_t stream) {
  JUDGE_CUDA_CHECK(cudaCtxResetPersistingL2Cache());
  // A read, not a write: reading twice the L2 size evicts every line the last call left (its dirty
  // output lines are written back now, outside the timing) and leaves only clean lines behind. A
  // memset would leave L2 full of dirty lines whose write-back the next kernel would pay for: on an
  // H200 that made a memory-bound kernel read ~11% slower than Nsight Compute, which flushes cleanly.
  enqueue_read_through(m_buffer.data(), m_buffer.bytes(), m_sink.as<unsigned>(), stream);
}

} // namespace judge_harness
