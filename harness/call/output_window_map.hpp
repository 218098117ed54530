// The runner's side of the output window (judge/run/output_window.hpp): memory the judge shares on
// fd 4, into which each output of a checked call is copied straight from the GPU when the request gives
// its offset. The descriptor is mapped and closed at once, before any learner code runs; the mapping is
// page-locked for CUDA the first time a large output is copied, so that the copy runs at the link's speed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace judge_harness {

class output_window_map {
public:
  /// Maps the window the judge passed on fd 4 (--output-window) and closes fd 4; throws
  /// std::runtime_error when fd 4 is not a window (not open, empty, not mappable).
  static output_window_map take_fd4();

  output_window_map(output_window_map&& other) noexcept;
  output_window_map& operator=(output_window_map&&) = delete;
  output_window_map(const output_window_map&) = delete;
  ~output_window_map();

  std::size_t bytes() const { return m_bytes; }

  /// Copies `bytes` bytes of device memory at `device` to byte `offset` of the window; throws
  /// std::runtime_error (naming output `name`) when they do not fit, and cuda_error when the copy fails.
  void copy_from_device(const void* device, std::size_t bytes, std::uint64_t offset, const std::string& name);

private:
  output_window_map(unsigned char* data, std::size_t bytes) : m_data(data), m_bytes(bytes) {}

  unsigned char* m_data = nullptr;
  std::size_t m_bytes = 0;
  bool m_lock_tried = false; ///< page-locking is tried once; where it fails, copies go through pageable memory
  bool m_locked = false;
};

} // namespace judge_harness
