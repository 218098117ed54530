// A device buffer of floats fenced by guard regions, to catch writes just outside it (threat: an
// off-by-one tile edge that corrupts a neighbour and would go unseen in a bare allocation).
#pragma once

#include "harness/cuda/device_memory.hpp"
#include "common/wire.hpp"

#include <cstddef>
#include <vector>

namespace judge_harness {

// A changed guard byte is reported to the judge as it is found (common/wire.hpp).
using judge_wire::guard_side;
using judge_wire::guard_violation;

/// How a buffer is laid out: inside guards (grading), or as an allocation of exactly its own size (under a
/// sanitizer, which sees an access leave an allocation but not one that lands in a guard of the same one).
enum class buffer_layout { guarded, exact };

class guarded_buffer {
public:
  /// [B] per side; a multiple of 256 keeps the user pointer as aligned as cudaMalloc's own.
  static constexpr std::size_t guard_bytes = 4096;

  /// Allocates count floats plus both guards, or (exact) the floats alone; contents undefined until filled
  /// and armed.
  explicit guarded_buffer(std::size_t count, buffer_layout layout = buffer_layout::guarded);

  float* data() const noexcept { return reinterpret_cast<float*>(m_memory.as<unsigned char>() + m_guard_bytes); }
  std::size_t count() const noexcept { return m_count; }

  /// See device_memory::abandon.
  void abandon() noexcept { m_memory.abandon(); }

  /// Writes the guard pattern into both guards; blocks until it is there. Nothing for an exact buffer.
  void arm_guards();

  /// The changed guard byte nearest to the buffer on each side, if any (at most two entries); blocks.
  /// Always empty for an exact buffer, which has no guards.
  std::vector<guard_violation> find_violations() const;

private:
  std::size_t m_guard_bytes; // [B] per side: guard_bytes, or 0 for an exact buffer
  device_memory m_memory;
  std::size_t m_count;
};

} // namespace judge_harness
