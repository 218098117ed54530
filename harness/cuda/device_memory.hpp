// One cudaMalloc allocation, owned: freed on destruction, movable, never copied.
#pragma once

#include "harness/cuda/cuda_check.hpp"

#include <cstddef>
#include <utility>

namespace judge_harness {

class device_memory {
public:
  device_memory() = default;

  /// Allocates `bytes` bytes of device memory (nothing for 0); throws cuda_error when it cannot.
  explicit device_memory(std::size_t bytes) : m_bytes(bytes) {
    if (bytes > 0) JUDGE_CUDA_CHECK(cudaMalloc(&m_data, bytes));
  }

  ~device_memory() { release(); }

  device_memory(const device_memory&) = delete;
  device_memory& operator=(const device_memory&) = delete;

  device_memory(device_memory&& other) noexcept
      : m_data(std::exchange(other.m_data, nullptr)), m_bytes(std::exchange(other.m_bytes, 0)) {}

  device_memory& operator=(device_memory&& other) noexcept {
    if (this != &other) {
      release();
      m_data = std::exchange(other.m_data, nullptr);
      m_bytes = std::exchange(other.m_bytes, 0);
    }
    return *this;
  }

  /// Gives the allocation up without freeing it: for after cudaDeviceReset() or a corrupted context,
  /// when freeing can only fail (and say so on the learner's stderr).
  void abandon() noexcept {
    m_data = nullptr;
    m_bytes = 0;
  }

  void* data() const noexcept { return m_data; }
  std::size_t bytes() const noexcept { return m_bytes; }

  /// The allocation seen as an array of T (cudaMalloc aligns to at least 256 bytes).
  template <typename T> T* as() const noexcept { return static_cast<T*>(m_data); }

private:
  void release() noexcept {
    if (m_data != nullptr) JUDGE_CUDA_CHECK_NOTHROW(cudaFree(m_data));
    m_data = nullptr;
    m_bytes = 0;
  }

  void* m_data = nullptr;
  std::size_t m_bytes = 0;
};

} // namespace judge_harness
