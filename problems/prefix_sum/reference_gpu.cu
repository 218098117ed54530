// GPU reference of prefix_sum, run inside the runner after every timed call to check it, so its speed is
// paid on every sample. Every sum is in double and each output is rounded to float once; only the order
// of the double additions differs from the CPU's running sum, which moves a result by about 2^-53 of the
// sum of magnitudes, far inside the tolerance of a float scan (and not at all for integer inputs).
// Three passes over tiles of 1024 elements: each tile's sum (one block per tile); the exclusive prefix of
// the tile sums (one block); each tile's scan from its offset (one block per tile, four elements a thread).
// Kernel names start with judge_reference_.
#include <cuda_runtime.h>

#include <cstddef>

namespace {
constexpr int tile = 1024;
constexpr int tile_threads = 256; // tile / tile_threads elements a thread
constexpr int per_thread = tile / tile_threads;
constexpr int offset_threads = 1024;

double* tile_sums(std::size_t tiles) {
  static double* sums = nullptr;
  static std::size_t capacity = 0;
  if (tiles > capacity) {
    cudaFree(sums);
    cudaMalloc(&sums, tiles * sizeof(double));
    capacity = tiles;
  }
  return sums;
}

/// The exclusive prefix, across the block, of each thread's `value` (blockDim.x a multiple of 32, at most
/// 1024); `warp_totals` holds 32 doubles. Every thread of the block must call it.
__device__ double block_exclusive_prefix(double value, double* warp_totals) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32, warps = blockDim.x / 32;
  double inclusive = value;
  for (int d = 1; d < 32; d *= 2) {
    const double below = __shfl_up_sync(0xffffffffu, inclusive, d);
    if (lane >= d) inclusive += below;
  }
  if (lane == 31) warp_totals[warp] = inclusive;
  __syncthreads();
  if (warp == 0) { // the warps' totals, scanned by the first warp
    double total = lane < warps ? warp_totals[lane] : 0.0;
    for (int d = 1; d < 32; d *= 2) {
      const double below = __shfl_up_sync(0xffffffffu, total, d);
      if (lane >= d) total += below;
    }
    warp_totals[lane] = total; // inclusive over warps 0..lane
  }
  __syncthreads();
  const double before_warp = warp == 0 ? 0.0 : warp_totals[warp - 1];
  const double result = before_warp + inclusive - value;
  __syncthreads(); // warp_totals may be used again by the caller
  return result;
}
} // namespace

extern "C" __global__ void judge_reference_scan_sums(const float* input, std::size_t n, double* sums) {
  __shared__ double warp_totals[32];
  const std::size_t begin = static_cast<std::size_t>(blockIdx.x) * tile;
  double s = 0;
  for (std::size_t i = begin + threadIdx.x; i < begin + tile && i < n; i += tile_threads) s += input[i];
  const double before = block_exclusive_prefix(s, warp_totals);
  if (threadIdx.x == tile_threads - 1) sums[blockIdx.x] = before + s;
}

extern "C" __global__ void judge_reference_scan_offsets(double* sums, std::size_t tiles) {
  // Thread t owns a contiguous run of tile sums: its total, the block's prefix of those totals, then the
  // run's own exclusive prefixes from there.
  __shared__ double warp_totals[32];
  const std::size_t run = (tiles + offset_threads - 1) / offset_threads;
  const std::size_t begin = threadIdx.x * run;
  const std::size_t end = begin + run < tiles ? begin + run : tiles;
  double total = 0;
  for (std::size_t t = begin; t < end; ++t) total += sums[t];
  double running = block_exclusive_prefix(total, warp_totals);
  for (std::size_t t = begin; t < end; ++t) {
    const double s = sums[t];
    sums[t] = running;
    running += s;
  }
}

extern "C" __global__ void judge_reference_scan_tiles(const float* input, float* output, std::size_t n,
                                                      const double* offsets) {
  __shared__ double warp_totals[32];
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * tile + threadIdx.x * per_thread;
  double value[per_thread];
  double own = 0;
  for (int k = 0; k < per_thread; ++k) {
    value[k] = first + k < n ? static_cast<double>(input[first + k]) : 0.0;
    own += value[k];
  }
  double running = offsets[blockIdx.x] + block_exclusive_prefix(own, warp_totals);
  for (int k = 0; k < per_thread && first + k < n; ++k) {
    running += value[k];
    output[first + k] = static_cast<float>(running);
  }
}

extern "C" void judge_reference_solve(void* const* buffers, const int* sizes, const float* /*scalars*/) {
  const auto* input = static_cast<const float*>(buffers[0]);
  auto* output = static_cast<float*>(buffers[1]);
  const std::size_t n = static_cast<std::size_t>(sizes[0]);
  if (n == 0) return;
  const std::size_t tiles = (n + tile - 1) / tile;
  double* sums = tile_sums(tiles);
  const auto grid = static_cast<unsigned>(tiles);
  judge_reference_scan_sums<<<grid, tile_threads, 0, cudaStreamLegacy>>>(input, n, sums);
  judge_reference_scan_offsets<<<1, offset_threads, 0, cudaStreamLegacy>>>(sums, tiles);
  judge_reference_scan_tiles<<<grid, tile_threads, 0, cudaStreamLegacy>>>(input, output, n, sums);
}
