// A device buffer of floats fenced by guard regions, to catch writes just outside it (threat: an
// off-by-one tile edge that corrupts a neighbour and would go unseen in a bare allocation).
#pragma once

#include "device_memory.hpp"

#include <cstddef>
#include <vector>

namespace judge_harness {

enum class guard_side { before, after };

/// A changed byte in a guard region.
struct guard_violation {
  guard_side side = guard_side::after;
  /// [B] distance from the buffer's edge: on the `after` side, bytes between the end of the buffer and
  /// the changed byte (0 = the first byte past the end); on the `before` side, bytes between the changed
  /// byte and the start (1 = the byte right before the start).
  std::size_t offset = 0;
};

class guarded_buffer {
public:
  /// [B] per side; a multiple of 256 keeps the user pointer as aligned as cudaMalloc's own.
  static constexpr std::size_t guard_bytes = 4096;

  /// Allocates count floats plus both guards (contents undefined until filled and armed).
  explicit guarded_buffer(std::size_t count);

  float* data() const noexcept { return reinterpret_cast<float*>(m_memory.as<unsigned char>() + guard_bytes); }
  std::size_t count() const noexcept { return m_count; }

  /// See device_memory::abandon.
  void abandon() noexcept { m_memory.abandon(); }

  /// Writes the guard pattern into both guards; blocks until it is there.
  void arm_guards();

  /// The changed guard byte nearest to the buffer on each side, if any (at most two entries); blocks.
  std::vector<guard_violation> find_violations() const;

private:
  device_memory m_memory;
  std::size_t m_count;
};

} // namespace judge_harness
