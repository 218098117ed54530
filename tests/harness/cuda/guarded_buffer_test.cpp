// Guarded buffers alone on the GPU: a write one element outside the buffer lands in a guard and is
// found, with its side and its distance from the buffer.
#include "catch.hpp"

#include "harness/cuda/guarded_buffer.hpp"
#include "test_kernels.cuh"

#include <cstddef>
#include <cstdint>
#include <vector>

using judge_harness::buffer_layout;
using judge_harness::guard_side;
using judge_harness::guarded_buffer;

namespace {

constexpr std::int64_t count = 1000; // not a multiple of anything a kernel's tile would hide

} // namespace

TEST_CASE("an armed guarded buffer written only inside reports no violation", "[gpu][guards]") {
  guarded_buffer buffer(count);
  buffer.arm_guards();
  CHECK(buffer.find_violations().empty());
  gpu_test::write_one(buffer.data(), 0, 1.0f);
  gpu_test::write_one(buffer.data(), count - 1, 1.0f);
  CHECK(buffer.find_violations().empty());
}

TEST_CASE("a write just outside the buffer is found in the guard on its side, at its distance", "[gpu][guards]") {
  struct row {
    std::int64_t index; ///< of the float written (1.0f: bytes 00 00 80 3f)
    guard_side side;
    std::size_t offset; ///< [B] guard_violation's distance from the buffer's edge
  };
  const row r = GENERATE(row{count, guard_side::after, 0},      // one element past the end
                         row{count + 3, guard_side::after, 12}, // three past: 12 bytes into the guard
                         row{-1, guard_side::before, 1});       // one before: its 0x3f right before the start
  CAPTURE(r.index);
  guarded_buffer buffer(count);
  buffer.arm_guards();
  gpu_test::write_one(buffer.data(), r.index, 1.0f);
  const auto found = buffer.find_violations();
  REQUIRE(found.size() == 1);
  CHECK(found[0].side == r.side);
  CHECK(found[0].offset == r.offset);
}

TEST_CASE("writes on both sides are both found, and arming again clears them", "[gpu][guards]") {
  guarded_buffer buffer(count);
  buffer.arm_guards();
  gpu_test::write_one(buffer.data(), -2, 1.0f);
  gpu_test::write_one(buffer.data(), count + 1, 1.0f);
  CHECK(buffer.find_violations().size() == 2);
  buffer.arm_guards();
  CHECK(buffer.find_violations().empty());
}

TEST_CASE("an exact buffer has no guards to violate", "[gpu][guards]") {
  guarded_buffer buffer(count, buffer_layout::exact);
  buffer.arm_guards();
  gpu_test::write_one(buffer.data(), count - 1, 1.0f);
  CHECK(buffer.find_violations().empty());
}
