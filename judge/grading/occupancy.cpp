#include "judge/grading/occupancy.hpp"

#include <algorithm>
#include <climits>
#include <stdexcept>

namespace judge {
namespace {

std::int64_t round_up(std::int64_t value, std::int64_t unit) { return (value + unit - 1) / unit * unit; }
std::int64_t divide_up(std::int64_t value, std::int64_t by) { return (value + by - 1) / by; }

/// The limits every compute capability from 8.0 shares; the rest differ per capability.
sm_limits ampere_and_later(int max_warps, int max_blocks, std::int64_t shared_per_sm_kb,
                           std::int64_t shared_per_block_kb) {
  sm_limits s;
  s.registers_per_sm = 64 * 1024;
  s.registers_per_block = 64 * 1024;
  s.max_registers_per_thread = 255;
  s.register_allocation_unit = 256;
  s.register_sub_partitions = 4;
  s.shared_per_sm = shared_per_sm_kb * 1024;
  s.shared_per_block = shared_per_block_kb * 1024;
  s.reserved_shared_per_block = 1024;
  s.shared_allocation_unit = 128;
  s.max_blocks_per_sm = max_blocks;
  s.max_warps_per_sm = max_warps;
  s.max_threads_per_block = 1024;
  return s;
}

} // namespace

std::optional<sm_limits> sm_limits_for(const std::string& cc) {
  // Only capabilities whose figures were checked against the programming guide's table; any other is
  // unknown rather than borrowed.
  if (cc == "8.0") return ampere_and_later(64, 32, 164, 163);
  if (cc == "8.6") return ampere_and_later(48, 16, 100, 99);
  if (cc == "8.9") return ampere_and_later(48, 24, 100, 99);
  if (cc == "9.0") return ampere_and_later(64, 32, 228, 227);
  return std::nullopt;
}

const char* limiter_name(occupancy_limiter limiter) {
  switch (limiter) {
  case occupancy_limiter::warps:
    return "warps";
  case occupancy_limiter::blocks:
    return "blocks";
  case occupancy_limiter::registers:
    return "registers";
  case occupancy_limiter::shared_memory:
    return "shared memory";
  }
  throw std::logic_error("an occupancy limiter without a name");
}

occupancy theoretical_occupancy(const sm_limits& sm, int threads_per_block, int registers_per_thread,
                                std::int64_t shared_bytes_per_block) {
  occupancy o;
  if (threads_per_block <= 0 || threads_per_block > sm.max_threads_per_block) return o; // cannot launch
  const std::int64_t warps_per_block = divide_up(threads_per_block, sm.warp_size);

  // Each limit as a number of blocks; ties go to the first in this order, so a kernel at full occupancy
  // is "limited by warps" rather than by a resource it has enough of.
  const std::int64_t by_warps = sm.max_warps_per_sm / warps_per_block;
  const std::int64_t by_blocks = sm.max_blocks_per_sm;

  // cudaOccMaxBlocksPerSMRegsLimit: registers are allocated per warp, rounded up to the allocation unit,
  // within each sub-partition; a block must also fit the per-block register file as the hardware checks
  // it (its warps rounded up to the sub-partition count).
  std::int64_t by_registers = INT_MAX;
  if (registers_per_thread > 0) {
    const std::int64_t per_warp =
        round_up(std::int64_t{registers_per_thread} * sm.warp_size, sm.register_allocation_unit);
    const std::int64_t assumed_per_block = per_warp * round_up(warps_per_block, sm.register_sub_partitions);
    if (registers_per_thread > sm.max_registers_per_thread || assumed_per_block > sm.registers_per_block ||
        per_warp * warps_per_block > sm.registers_per_block)
      by_registers = 0;
    else
      by_registers =
          (sm.registers_per_sm / sm.register_sub_partitions / per_warp) * sm.register_sub_partitions / warps_per_block;
  }

  // cudaOccMaxBlocksPerSMSmemLimit: the block's shared memory plus the driver's reserve, rounded up to the
  // allocation unit; the reserve counts against the SM but not against the per-block limit.
  std::int64_t by_shared = INT_MAX;
  const std::int64_t shared =
      round_up(shared_bytes_per_block + sm.reserved_shared_per_block, sm.shared_allocation_unit);
  if (shared_bytes_per_block > sm.shared_per_block)
    by_shared = 0;
  else if (shared > 0)
    by_shared = sm.shared_per_sm / shared;

  std::int64_t blocks = by_warps;
  o.limiter = occupancy_limiter::warps;
  const std::pair<std::int64_t, occupancy_limiter> others[] = {{by_blocks, occupancy_limiter::blocks},
                                                               {by_registers, occupancy_limiter::registers},
                                                               {by_shared, occupancy_limiter::shared_memory}};
  for (const auto& [limit, limiter] : others)
    if (limit < blocks) {
      blocks = limit;
      o.limiter = limiter;
    }
  o.blocks_per_sm = static_cast<int>(blocks);
  o.warps_per_sm = static_cast<int>(blocks * warps_per_block);
  o.fraction = static_cast<double>(o.warps_per_sm) / sm.max_warps_per_sm;
  return o;
}

double waves(std::int64_t blocks, int blocks_per_sm, int sms) {
  if (blocks_per_sm <= 0 || sms <= 0) return 0;
  return static_cast<double>(blocks) / (static_cast<double>(blocks_per_sm) * sms);
}

} // namespace judge
