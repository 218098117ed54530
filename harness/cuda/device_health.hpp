// Whether the CUDA context survived what solve() did: pending and sticky errors, and cudaDeviceReset().
#pragma once

#include "harness/cuda/device_memory.hpp"

#include <cstdint>

namespace judge_harness {

/// Synchronises the device and reads (and clears, where CUDA can) the error that is pending now.
cudaError_t settle_device() noexcept;

/// After an error was read: whether the context is corrupted (the error persists, a "sticky" error such
/// as an illegal address), so that no further CUDA work can succeed in this process.
bool context_is_corrupted() noexcept;

/// Detects a cudaDeviceReset() made by solve(): a small allocation holding a known value, made before,
/// that the reset destroys. After a reset a new allocation may reuse the address, so the value is read
/// back too.
class reset_sentinel {
public:
  reset_sentinel();

  /// Whether the sentinel allocation is gone or no longer holds its value. Blocking.
  bool device_was_reset() const noexcept;

private:
  device_memory m_memory;
};

} // namespace judge_harness
