// Ladder step 4: one tile per block and no loop, as the fastest copy is written; the last block in
// launch order adds the partials.
//
// What it teaches: step 3 sizes its grid for a loop, 528 blocks of 512 threads, but at 36 registers a
// thread only three of its blocks fit on an SM: 396 run, then a second wave of 132 (1.33 waves), and
// every call pays the first wave's drain before the second can finish. vector_add's fastest step gives
// each thread its loads and launches as many blocks as that takes, so that the block scheduler hands out
// work as SMs free up. A reduction can be written the same way, and its finish needs no ticket:
//  - A block of 512 threads reads one tile of 32 KB: four float4 loads a thread, all issued before the
//    first addition (predicated, in the PTX, only in the one tile that is cut short). 3052 blocks at
//    N = 25,000,000, four resident an SM (2048 threads, 32 registers a thread), each starting its loads
//    as soon as a slot frees. (Four loads a thread rather than vector_add's one: each block leaves a
//    partial for the last block to read, and 24,000 of them would cost it several round trips.)
//  - A block stores its sum as one 64-bit word carrying the call's number (an epoch the host counts)
//    beside the float's bits, one relaxed store, and exits: no fence, no atomic round trip holding its
//    slot at the end of its life.
//  - The last block of the grid collects. Blocks are dispatched in index order (as CUB's decoupled
//    look-back and prefix_sum's step 6 rely on), so when block G-1 runs, every block before it is running
//    or done, and each word it waits for is on its way. It reads the words six a thread at once (all
//    3052 at N = 25,000,000 in one trip), reads again only a word that still carries an older epoch,
//    adds them in block order and writes output[0].
//  - No memset, no counter: a word of an earlier call carries an older epoch (the words, one per tile for
//    the largest int N, 2 MB, start zeroed; the epoch is never 0).
// The loads are step 3's read-only path (ld.global.nc). The N % 4 values after the last float4 are added
// by block 0.
//
// On an H100 80GB HBM3 (GPU-0613d543, 2026-12-07, two runs): 9.8, 25.2 and 35.3 µs on LeetGPU's
// 4,194,304, 2^24 and 25,000,000 (step 3: 11.7, 26.8, 37.0 µs), 150%, 118% and 115% of CUB, 84.5% of
// the DRAM peak at 25,000,000 (step 3: 80.7%). Across the three sizes the time is 4.6 µs plus the bytes
// at 3.26 TB/s: the stream itself runs at 97% of the peak, and the 4.6 µs every call pays (the grid's
// start, the first loads' latency, the last wave's drain, the collection) is the 15% a 100 MB read
// cannot hide. Measured beside it, none faster by more than 0.1 µs (within a run's spread): L2
// evict-first loads, evict-last partials, 1024-thread tiles, eight loads a thread, 256-thread blocks, a
// separate collecting block, a cooperative grid polling the partials, a ring of bulk copies into shared
// memory, an L2 prefetch of later tiles.
//
// Verdict: accepted.
#include <cuda_runtime.h>

#include <climits>
#include <cstddef>

namespace {

constexpr int threads = 512;
constexpr int per_thread = 4;                        // float4 loads a thread
constexpr int tile_groups = threads * per_thread;    // float4s a block: 32 KB
constexpr int collect = 6;                           // words a thread reads at once when collecting
static_assert(per_thread == 4, "the kernel adds v[0..3] by hand");
constexpr std::size_t max_tiles = (static_cast<std::size_t>(INT_MAX) / 4 + tile_groups - 1) / tile_groups;

__device__ __forceinline__ float4 load_once(const float4* p) {
  float4 v;
  asm("ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];"
      : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
      : "l"(p));
  return v;
}

/// load_once where `ok`, else zeros: a predicated load in the PTX itself, never a branch around it, so
/// that every load of a round is issued before the first addition waits.
__device__ __forceinline__ float4 load_once_if(const float4* p, bool ok) {
  float4 v;
  asm("{\n\t.reg .pred p;\n\t"
      "setp.ne.b32 p, %5, 0;\n\t"
      "mov.f32 %0, 0f00000000;\n\t"
      "mov.f32 %1, 0f00000000;\n\t"
      "mov.f32 %2, 0f00000000;\n\t"
      "mov.f32 %3, 0f00000000;\n\t"
      "@p ld.global.nc.v4.f32 {%0, %1, %2, %3}, [%4];\n\t}"
      : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
      : "l"(p), "r"(static_cast<int>(ok)));
  return v;
}

__device__ __forceinline__ void store_word(unsigned long long* p, unsigned epoch, float value) {
  const unsigned long long w = (static_cast<unsigned long long>(epoch) << 32) | __float_as_uint(value);
  asm volatile("st.relaxed.gpu.global.b64 [%0], %1;" : : "l"(p), "l"(w) : "memory");
}

__device__ __forceinline__ unsigned long long load_word(const unsigned long long* p) {
  unsigned long long w;
  asm volatile("ld.relaxed.gpu.global.b64 %0, [%1];" : "=l"(w) : "l"(p) : "memory");
  return w;
}

__device__ __forceinline__ float sum4(float4 a) { return (a.x + a.y) + (a.z + a.w); }

__device__ __forceinline__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

/// The sum of one block's `value`s, in thread 0 (the others get a partial).
__device__ float block_sum(float value) {
  __shared__ float warp_sums[threads / 32];
  value = warp_sum(value);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = value;
  __syncthreads();
  value = threadIdx.x < threads / 32 ? warp_sums[threadIdx.x] : 0.0f;
  if (threadIdx.x < 32) value = warp_sum(value);
  return value;
}

__global__ void __launch_bounds__(threads, 4) // 2048 threads an SM: 32 registers
    reduce_tiles(const float* __restrict__ input, float* __restrict__ output, std::size_t n,
                 unsigned long long* words, unsigned epoch) {
  const std::size_t groups = n / 4;
  const auto* input4 = reinterpret_cast<const float4*>(input);
  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * tile_groups + threadIdx.x;
  float4 v[per_thread];
  if (static_cast<std::size_t>(blockIdx.x + 1) * tile_groups <= groups) {
#pragma unroll
    for (int j = 0; j < per_thread; ++j) v[j] = load_once(input4 + base + j * threads);
  } else {
#pragma unroll
    for (int j = 0; j < per_thread; ++j) {
      const std::size_t i = base + j * threads;
      v[j] = load_once_if(input4 + i, i < groups);
    }
  }
  float sum = (sum4(v[0]) + sum4(v[1])) + (sum4(v[2]) + sum4(v[3]));
  if (blockIdx.x == 0 && threadIdx.x < n % 4) sum += input[groups * 4 + threadIdx.x]; // the tail
  const float block_total = block_sum(sum);
  const unsigned last = gridDim.x - 1;
  if (blockIdx.x != last) {
    if (threadIdx.x == 0) store_word(words + blockIdx.x, epoch, block_total);
    return;
  }
  // The last block in launch order: every other block is running or done.
  __shared__ float own;
  if (threadIdx.x == 0) own = block_total;
  __syncthreads(); // `own` is written, and warp 0 has read block_sum's shared sums before they are reused
  float total = 0.0f;
  for (unsigned first = threadIdx.x; first < gridDim.x; first += threads * collect) {
    unsigned long long w[collect];
#pragma unroll
    for (int k = 0; k < collect; ++k) {
      const unsigned b = first + k * threads;
      w[k] = b < last ? load_word(words + b) : static_cast<unsigned long long>(epoch) << 32; // 0.0f
    }
#pragma unroll
    for (int k = 0; k < collect; ++k) {
      const unsigned b = first + k * threads;
      while (static_cast<unsigned>(w[k] >> 32) != epoch) w[k] = load_word(words + b); // still on its way
      total += b == last ? own : __uint_as_float(static_cast<unsigned>(w[k]));
    }
  }
  total = block_sum(total);
  if (threadIdx.x == 0) output[0] = total;
}

} // namespace

extern "C" void solve(const float* input, float* output, int N) {
  static unsigned long long* words = nullptr;
  static unsigned epoch = 0; // this call's number, never 0 (0 is "zeroed")
  if (words == nullptr) {
    cudaMalloc(&words, max_tiles * sizeof(unsigned long long));
    cudaMemset(words, 0, max_tiles * sizeof(unsigned long long));
  }
  if (++epoch == 0) epoch = 1;
  const std::size_t n = N > 0 ? static_cast<std::size_t>(N) : 0;
  const std::size_t tiles = (n / 4 + tile_groups - 1) / tile_groups;
  const unsigned blocks = static_cast<unsigned>(tiles > 0 ? tiles : 1); // N < 4: one block for the tail
  reduce_tiles<<<blocks, threads>>>(input, output, n, words, epoch);
  cudaDeviceSynchronize();
}
