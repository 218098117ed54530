// Cold-L2 timing: evicts everything a previous call left in L2 before the next timed call.
#pragma once

#include "harness/cuda/device_memory.hpp"

#include <cstddef>

namespace judge_harness {

class l2_flush {
public:
  /// `l2_bytes` [B]: the device's L2 size (cudaDevAttrL2CacheSize); the flush writes twice that, so no
  /// line of earlier data survives whatever the replacement policy.
  explicit l2_flush(std::size_t l2_bytes);

  /// Demotes persisting L2 lines to normal ones (a solution may have reserved persisting L2 to survive
  /// the flush), then enqueues on `stream` a read of the whole flush buffer.
  void enqueue(cudaStream_t stream);

private:
  device_memory m_buffer;
  device_memory m_sink; ///< written only if the read's impossible condition holds
};

} // namespace judge_harness
