#include "harness/cuda/device_health.hpp"

namespace judge_harness {
namespace {
constexpr std::uint64_t sentinel_value = 0x6A75646765C0FFEEull;
}

cudaError_t settle_device() noexcept {
  const cudaError_t synchronised = cudaDeviceSynchronize();
  const cudaError_t last = cudaGetLastError();
  return synchronised != cudaSuccess ? synchronised : last;
}

bool context_is_corrupted() noexcept {
  // A sticky error is returned again by every later call; a recoverable one was cleared when read.
  return settle_device() != cudaSuccess;
}

reset_sentinel::reset_sentinel() : m_memory(sizeof(std::uint64_t)) {
  JUDGE_CUDA_CHECK(cudaMemcpy(m_memory.data(), &sentinel_value, sizeof sentinel_value, cudaMemcpyHostToDevice));
}

bool reset_sentinel::device_was_reset() const noexcept {
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, m_memory.data()) != cudaSuccess) {
    cudaGetLastError(); // the failed query is our own error; do not leave it pending
    return true;
  }
  if (attributes.type != cudaMemoryTypeDevice || attributes.devicePointer != m_memory.data()) return true;
  std::uint64_t value = 0;
  if (cudaMemcpy(&value, m_memory.data(), sizeof value, cudaMemcpyDeviceToHost) != cudaSuccess) {
    cudaGetLastError();
    return true;
  }
  return value != sentinel_value;
}

} // namespace judge_harness
