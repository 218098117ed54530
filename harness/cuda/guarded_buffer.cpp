#include "harness/cuda/guarded_buffer.hpp"

#include <array>
#include <cstdint>

namespace judge_harness {
namespace {

using guard_bytes_array = std::array<unsigned char, guarded_buffer::guard_bytes>;

/// A pattern no plausible kernel writes by accident: not zero, not a repeated float, position dependent.
const guard_bytes_array& guard_pattern() {
  static const guard_bytes_array pattern = [] {
    guard_bytes_array bytes{};
    for (std::size_t i = 0; i < bytes.size(); ++i)
      bytes[i] = static_cast<unsigned char>((0xA5u + 0x3Du * i) ^ (i >> 8));
    return bytes;
  }();
  return pattern;
}

} // namespace

guarded_buffer::guarded_buffer(std::size_t count, buffer_layout layout)
    : m_guard_bytes(layout == buffer_layout::exact ? 0 : guard_bytes),
      m_memory(count * sizeof(float) + 2 * m_guard_bytes), m_count(count) {}

void guarded_buffer::arm_guards() {
  if (m_guard_bytes == 0) return;
  unsigned char* base = m_memory.as<unsigned char>();
  const guard_bytes_array& pattern = guard_pattern();
  JUDGE_CUDA_CHECK(cudaMemcpy(base, pattern.data(), guard_bytes, cudaMemcpyHostToDevice));
  JUDGE_CUDA_CHECK(
      cudaMemcpy(base + guard_bytes + m_count * sizeof(float), pattern.data(), guard_bytes, cudaMemcpyHostToDevice));
}

std::vector<guard_violation> guarded_buffer::find_violations() const {
  if (m_guard_bytes == 0) return {};
  const unsigned char* base = m_memory.as<unsigned char>();
  const guard_bytes_array& pattern = guard_pattern();
  guard_bytes_array before{};
  guard_bytes_array after{};
  JUDGE_CUDA_CHECK(cudaMemcpy(before.data(), base, guard_bytes, cudaMemcpyDeviceToHost));
  JUDGE_CUDA_CHECK(
      cudaMemcpy(after.data(), base + guard_bytes + m_count * sizeof(float), guard_bytes, cudaMemcpyDeviceToHost));

  std::vector<guard_violation> found;
  // Nearest to the buffer first: the byte next to the start is the last one of the `before` guard.
  for (std::size_t i = guard_bytes; i-- > 0;) {
    if (before[i] != pattern[i]) {
      found.push_back({guard_side::before, guard_bytes - i});
      break;
    }
  }
  for (std::size_t i = 0; i < guard_bytes; ++i) {
    if (after[i] != pattern[i]) {
      found.push_back({guard_side::after, i});
      break;
    }
  }
  return found;
}

} // namespace judge_harness
