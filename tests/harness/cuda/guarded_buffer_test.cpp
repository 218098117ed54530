// Guarded buffers alone on the GPU: a write one element outside the buffer lands in a guard and is
// found, with its side and its distance from the buffer.
#include "catch.hpp"

#include "guarded_buffer.hpp"
#include "test_kernels.cuh"

#include <cstddef>
#include <vector>

using judge_harness::buffer_layout;
using judge_harness::guard_side;
using judge_harness::guarded_buffer;

namespace {

constexpr std::size_t count = 1000; // not a multiple of anything a kernel's tile would hide

} // namespace

TEST_CASE("an armed guarded buffer written only inside reports no violation", "[gpu][guards]") {
  guarded_buffer buffer(count);
  buffer.arm_guards();
  CHECK(buffer.find_violations().empty());
  gpu_test::write_one(buffer.data(), 0, 1.0f);
  gpu_test::write_one(buffer.data(), count - 1, 1.0f);
  CHECK(buffer.find_violations().empty());
}

TEST_CASE("a write one element past the end is found in the guard after, at offset 0", "[gpu][guards]") {
  guarded_buffer buffer(count);
  buffer.arm_guards();
  gpu_test::write_one(buffer.data(), count, 1.0f);
  const auto found = buffer.find_violations();
  REQUIRE(found.size() == 1);
  CHECK(found[0].side == guard_side::after);
  CHECK(found[0].offset == 0);
}

TEST_CASE("a write three elements past the end is found 12 bytes into the guard after", "[gpu][guards]") {
  guarded_buffer buffer(count);
  buffer.arm_guards();
  gpu_test::write_one(buffer.data(), count + 3, 1.0f);
  const auto found = buffer.find_violations();
  REQUIRE(found.size() == 1);
  CHECK(found[0].side == guard_side::after);
  CHECK(found[0].offset == 12);
}

TEST_CASE("a write one element before the start is found in the guard before, next to the buffer", "[gpu][guards]") {
  guarded_buffer buffer(count);
  buffer.arm_guards();
  gpu_test::write_one(buffer.data(), -1, 1.0f);
  const auto found = buffer.find_violations();
  REQUIRE(found.size() == 1);
  CHECK(found[0].side == guard_side::before);
  // 1.0f's highest byte (0x3f), the last of the element, sits right before the buffer.
  CHECK(found[0].offset == 1);
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
