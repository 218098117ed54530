// Theoretical occupancy: how many blocks of a kernel fit on one SM at once, which resource stops more
// from fitting, and how many waves a grid takes over the device's SMs. Pure arithmetic after the CUDA
// occupancy calculator (cuda_occupancy.h, cudaOccMaxActiveBlocksPerMultiprocessor), tested by hand.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace judge {

/// What one SM of a compute capability holds (CUDA C++ Programming Guide, "Technical Specifications per
/// Compute Capability", and cuda_occupancy.h for the allocation units and the reserved shared memory).
struct sm_limits {
  int registers_per_sm = 0;
  int registers_per_block = 0;
  int max_registers_per_thread = 0;
  int register_allocation_unit = 0;           ///< registers per warp are rounded up to this
  int register_sub_partitions = 0;            ///< registers are allocated within each quarter of the SM
  std::int64_t shared_per_sm = 0;             ///< [B] with the largest shared-memory carve-out
  std::int64_t shared_per_block = 0;          ///< [B] the most one block may ask for (opt-in)
  std::int64_t reserved_shared_per_block = 0; ///< [B] the driver's own, per resident block
  std::int64_t shared_allocation_unit = 0;    ///< [B] a block's shared memory is rounded up to this
  int max_blocks_per_sm = 0;
  int max_warps_per_sm = 0;
  int max_threads_per_block = 0;
  int warp_size = 32;
};

/// The limits of compute capability `cc` ("9.0"), or nothing when the judge does not know them: then
/// occupancy is unknown, never guessed from another GPU.
std::optional<sm_limits> sm_limits_for(const std::string& cc);

/// The resource that stops another block from fitting on the SM.
enum class occupancy_limiter { warps, blocks, registers, shared_memory };
/// "warps", "blocks", "registers", "shared memory".
const char* limiter_name(occupancy_limiter limiter);

struct occupancy {
  int blocks_per_sm = 0; ///< 0: one block does not fit at all (limiter says why)
  int warps_per_sm = 0;  ///< resident warps at blocks_per_sm
  double fraction = 0;   ///< warps_per_sm / the SM's maximum warps [0, 1]
  occupancy_limiter limiter = occupancy_limiter::warps;
};

/// The theoretical occupancy of blocks of `threads_per_block` threads using `registers_per_thread` and
/// `shared_bytes_per_block` (static + dynamic). The per-SM maximum shared memory is assumed available
/// (the driver's default carve-out grows to fit the blocks).
occupancy theoretical_occupancy(const sm_limits& sm, int threads_per_block, int registers_per_thread,
                                std::int64_t shared_bytes_per_block);

/// How many full rounds of blocks the grid takes: blocks / (blocks_per_sm × sms). Below 1, some SMs
/// have nothing to do. 0 when nothing fits or the device is unknown (sms 0).
double waves(std::int64_t blocks, int blocks_per_sm, int sms);

} // namespace judge
