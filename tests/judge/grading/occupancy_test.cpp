#include "catch.hpp"

#include "judge/grading/occupancy.hpp"

#if JUDGE_CATCH_MAJOR >= 3
using Catch::Approx; // Catch2 2.13 declares it globally
#endif

// Every figure here is worked out by hand from the sm_90 limits (64K registers in 4 sub-partitions,
// 256-register allocation per warp, 228 KB shared per SM with 1 KB reserved per block in 128 B units,
// 32 blocks and 64 warps per SM), following cuda_occupancy.h.

namespace {
const judge::sm_limits& hopper() {
  static const judge::sm_limits sm = *judge::sm_limits_for("9.0");
  return sm;
}
} // namespace

TEST_CASE("the SM limits of compute capability 9.0 are the programming guide's", "[occupancy]") {
  const judge::sm_limits& sm = hopper();
  CHECK(sm.registers_per_sm == 65536);
  CHECK(sm.max_registers_per_thread == 255);
  CHECK(sm.register_allocation_unit == 256);
  CHECK(sm.shared_per_sm == 228 * 1024);
  CHECK(sm.shared_per_block == 227 * 1024);
  CHECK(sm.reserved_shared_per_block == 1024);
  CHECK(sm.max_blocks_per_sm == 32);
  CHECK(sm.max_warps_per_sm == 64);
}

TEST_CASE("an unknown compute capability has no limits rather than another GPU's", "[occupancy]") {
  CHECK_FALSE(judge::sm_limits_for("7.5").has_value());
  CHECK_FALSE(judge::sm_limits_for("").has_value());
}

TEST_CASE("32 registers and 256 threads fill the SM, limited by warps", "[occupancy]") {
  // 8 warps per block: 64 / 8 = 8 blocks; registers: 1024 per warp, 16384 / 1024 = 16 warps per
  // sub-partition, 64 per SM, 8 blocks too: a tie, reported as warps.
  const judge::occupancy o = judge::theoretical_occupancy(hopper(), 256, 32, 0);
  CHECK(o.blocks_per_sm == 8);
  CHECK(o.warps_per_sm == 64);
  CHECK(o.fraction == 1.0);
  CHECK(o.limiter == judge::occupancy_limiter::warps);
}

TEST_CASE("64 registers per thread halve the occupancy of 256-thread blocks", "[occupancy]") {
  // 2048 registers per warp: 16384 / 2048 = 8 warps per sub-partition, 32 per SM = 4 blocks of 8 warps.
  const judge::occupancy o = judge::theoretical_occupancy(hopper(), 256, 64, 0);
  CHECK(o.blocks_per_sm == 4);
  CHECK(o.fraction == 0.5);
  CHECK(o.limiter == judge::occupancy_limiter::registers);
}

TEST_CASE("registers per warp are rounded up to 256 before they are divided", "[occupancy]") {
  // 50 × 32 = 1600, rounded up to 1792: 16384 / 1792 = 9 warps per sub-partition, 36 per SM, 4 blocks of
  // 8 warps (not 40 / 8 = 5 as 65536 / 1600 would suggest).
  const judge::occupancy o = judge::theoretical_occupancy(hopper(), 256, 50, 0);
  CHECK(o.blocks_per_sm == 4);
  CHECK(o.warps_per_sm == 32);
  CHECK(o.limiter == judge::occupancy_limiter::registers);
}

TEST_CASE("48 KB of shared memory per block lets 4 blocks share an SM", "[occupancy]") {
  // 49152 + 1024 reserved = 50176 B per block; 233472 / 50176 = 4 blocks of 4 warps = 16 warps, 25%.
  const judge::occupancy o = judge::theoretical_occupancy(hopper(), 128, 32, 48 * 1024);
  CHECK(o.blocks_per_sm == 4);
  CHECK(o.fraction == 0.25);
  CHECK(o.limiter == judge::occupancy_limiter::shared_memory);
}

TEST_CASE("one-warp blocks stop at 32 blocks per SM", "[occupancy]") {
  const judge::occupancy o = judge::theoretical_occupancy(hopper(), 32, 16, 0);
  CHECK(o.blocks_per_sm == 32);
  CHECK(o.fraction == 0.5);
  CHECK(o.limiter == judge::occupancy_limiter::blocks);
}

TEST_CASE("a block that cannot fit gets no blocks and the resource that stops it", "[occupancy]") {
  // 255 registers → 8192 per warp × 32 warps = 262144 > 65536 per block.
  const judge::occupancy by_registers = judge::theoretical_occupancy(hopper(), 1024, 255, 0);
  CHECK(by_registers.blocks_per_sm == 0);
  CHECK(by_registers.limiter == judge::occupancy_limiter::registers);
  const judge::occupancy by_shared = judge::theoretical_occupancy(hopper(), 128, 32, 228 * 1024);
  CHECK(by_shared.blocks_per_sm == 0);
  CHECK(by_shared.limiter == judge::occupancy_limiter::shared_memory);
  CHECK(judge::theoretical_occupancy(hopper(), 2048, 32, 0).blocks_per_sm == 0);
}

TEST_CASE("64 blocks on 132 SMs are under a tenth of a wave", "[occupancy]") {
  CHECK(judge::waves(64, 8, 132) == Approx(64.0 / 1056.0));
  CHECK(judge::waves(2112, 8, 132) == Approx(2.0));
  CHECK(judge::waves(64, 0, 132) == 0);
  CHECK(judge::waves(64, 8, 0) == 0);
}
