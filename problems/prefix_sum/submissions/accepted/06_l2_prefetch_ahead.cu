// Ladder step 6: tiles in launch order, and each block asks L2 for a later block's tile as it starts.
//
// What it teaches: a single-pass scan keeps DRAM busy only while its blocks are loading. A block spends
// most of its life after its loads, reducing, looking back and storing, and while it does its SM has no
// loads in flight: step 5 moves 2.1 to 2.6 TB/s at N = 25,000,000, where the reduction's step 3 reads
// 3.5. A prefetch into L2 that costs the block no registers and no waiting keeps the memory busy through
// those phases.
//  - As a block starts, thread 0 issues one bulk prefetch (cp.async.bulk.prefetch.L2, sm_90) of the whole
//    input tile that the block D tiles later will scan; that block then finds its 12 KB in L2. D is a
//    quarter of the blocks that fit on the GPU at once (occupancy × SMs, asked once): far enough ahead to
//    cover DRAM's latency, near enough that the prefetched lines are still in L2 when they are read. A
//    whole wave ahead (D = blocks resident) was slower than no prefetch at all: the lines were evicted
//    before their block came.
//  - The tile is the block's index. The GPU dispatches blocks in index order (CUB's own DeviceScan relies
//    on it too), so a tile only ever waits on tiles that have started. Step 5's ticket (an atomic round trip before any load)
//    goes, and with it the base the host kept.
//  - The outputs are stored with streaming stores (__stcs, evict-first): they are never read again and
//    should not push the status words or the prefetched input out of L2.
//  - As in step 5: CUB's sm_90 tile (128 threads × 24 values, warp-striped float4 loads into registers),
//    status words that carry the call's number (no memset), one launch.
//
// One run of the judge on an H100 80GB HBM3 (2026-12-06, the whole ladder, CUB timed in the same run):
// 6.4 µs at N = 250,000 (205.5% of CUB's 13.1 µs), 51.8 µs at N = 2^24 (119.3%; CUB 61.9 µs), 75.0 µs at
// N = 25,000,000 (116.6%; CUB 87.5 µs, step 5 91.4 µs): 79.5% of the DRAM peak. In a benchmark of
// interleaved calls on the same day, without the prefetch (block-index tiles and streaming stores only)
// the step read 94.3% of CUB at 25,000,000; prefetching a quarter of a wave ahead 109.5%, half a wave
// 107.6%, a whole wave 87.4%, two waves 81.5%.
//
// Verdict: accepted.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace {

constexpr int warps = 4;
constexpr int threads = warps * 32;
constexpr int groups = 6;                   // float4 groups per thread
constexpr int warp_items = 32 * 4 * groups; // values per warp
constexpr int tile = warps * warp_items;    // values per tile
constexpr std::size_t max_n = 100000000;    // the statement's largest N

constexpr unsigned flag_none = 0, flag_aggregate = 1, flag_prefix = 2;

__device__ __forceinline__ unsigned long long load_status(const unsigned long long* p) {
  unsigned long long v;
  asm volatile("ld.relaxed.gpu.global.b64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}

__device__ __forceinline__ void store_status(unsigned long long* p, unsigned epoch, unsigned flag, float value) {
  const unsigned high = (epoch << 2) | flag;
  const unsigned long long v = (static_cast<unsigned long long>(high) << 32) | __float_as_uint(value);
  asm volatile("st.relaxed.gpu.global.b64 [%0], %1;" : : "l"(p), "l"(v) : "memory");
}

__device__ __forceinline__ unsigned flag_of(unsigned long long word, unsigned epoch) {
  const unsigned high = static_cast<unsigned>(word >> 32);
  return (high >> 2) == epoch ? (high & 3u) : flag_none;
}

__device__ __forceinline__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

// Streaming (evict-first) stores: the outputs are never read again.
__device__ __forceinline__ void store4(float* p, float4 v) { __stcs(reinterpret_cast<float4*>(p), v); }
__device__ __forceinline__ void store1(float* p, float v) { __stcs(p, v); }

/// One bulk request for `bytes` (a multiple of 16, from a 16-byte aligned address) into L2.
__device__ __forceinline__ void prefetch_l2(const float* p, unsigned bytes) {
  asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" : : "l"(p), "r"(bytes) : "memory");
}

/// One whole warp, tile t > 0: the sum of every value before tile t (step 5's look-back).
__device__ float look_back(const unsigned long long* status, long long t, unsigned epoch) {
  const int lane = threadIdx.x % 32;
  float exclusive = 0.0f;
  long long newest = t - 1;
  while (true) {
    const long long p = newest - lane;
    unsigned flag;
    float value;
    unsigned prefixes, missing;
    unsigned sleep_ns = 32;
    while (true) {
      if (p < 0) {
        flag = flag_prefix, value = 0.0f;
      } else {
        const unsigned long long w = load_status(status + p);
        flag = flag_of(w, epoch), value = __uint_as_float(static_cast<unsigned>(w));
      }
      prefixes = __ballot_sync(0xffffffffu, flag == flag_prefix);
      missing = __ballot_sync(0xffffffffu, flag == flag_none);
      const unsigned needed = prefixes ? ((prefixes & (0u - prefixes)) << 1) - 1u : 0xffffffffu;
      if ((missing & needed) == 0) break;
      __nanosleep(sleep_ns);
      if (sleep_ns < 512) sleep_ns *= 2;
    }
    if (prefixes != 0) {
      const int nearest = __ffs(static_cast<int>(prefixes)) - 1;
      return exclusive + warp_sum(lane <= nearest ? value : 0.0f);
    }
    exclusive += warp_sum(value);
    newest -= 32;
  }
}

__global__ void __launch_bounds__(threads, 1024 / threads) // at most 64 registers a thread
    scan_single_pass(const float* __restrict__ input, float* __restrict__ output, std::size_t n,
                     unsigned long long* status, unsigned prefetch_distance, unsigned epoch) {
  __shared__ float warp_total[warps];
  __shared__ float tile_before;
  const unsigned t = blockIdx.x;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;

  const std::size_t tile_base = static_cast<std::size_t>(t) * tile;
  if (threadIdx.x == 0 && prefetch_distance != 0) {
    const std::size_t ahead = tile_base + static_cast<std::size_t>(prefetch_distance) * tile;
    if (ahead < n) {
      const std::size_t values = n - ahead < static_cast<std::size_t>(tile) ? n - ahead : tile;
      const unsigned bytes = static_cast<unsigned>(values * sizeof(float)) & ~15u; // whole 16-byte units
      if (bytes != 0) prefetch_l2(input + ahead, bytes);
    }
  }
  const std::size_t base = tile_base + static_cast<std::size_t>(warp) * warp_items + lane * 4;
  const bool full = tile_base + tile <= n;

  float4 v[groups];
  if (full) {
#pragma unroll
    for (int j = 0; j < groups; ++j) v[j] = __ldg(reinterpret_cast<const float4*>(input + base + j * 128));
  } else {
#pragma unroll
    for (int j = 0; j < groups; ++j) {
      const std::size_t i = base + j * 128;
      if (i + 4 <= n) {
        v[j] = __ldg(reinterpret_cast<const float4*>(input + i));
      } else {
        v[j].x = i < n ? input[i] : 0.0f;
        v[j].y = i + 1 < n ? input[i + 1] : 0.0f;
        v[j].z = i + 2 < n ? input[i + 2] : 0.0f;
        v[j].w = 0.0f;
      }
    }
  }

  float scan[groups], offset[groups];
#pragma unroll
  for (int j = 0; j < groups; ++j) {
    v[j].y += v[j].x;
    v[j].z += v[j].y;
    v[j].w += v[j].z;
    scan[j] = v[j].w;
  }
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
#pragma unroll
    for (int j = 0; j < groups; ++j) {
      const float up = __shfl_up_sync(0xffffffffu, scan[j], d);
      if (lane >= d) scan[j] += up;
    }
  }
  float running = 0.0f;
#pragma unroll
  for (int j = 0; j < groups; ++j) {
    const float before = __shfl_up_sync(0xffffffffu, scan[j], 1);
    const float group_total = __shfl_sync(0xffffffffu, scan[j], 31);
    offset[j] = running + (lane == 0 ? 0.0f : before);
    running += group_total;
  }
  if (lane == 0) warp_total[warp] = running;
  __syncthreads();

  float aggregate = 0.0f, warp_before = 0.0f;
#pragma unroll
  for (int w = 0; w < warps; ++w) {
    if (w == warp) warp_before = aggregate;
    aggregate += warp_total[w];
  }
  if (warp == 0) {
    if (t == 0) {
      if (lane == 0) {
        store_status(status, epoch, flag_prefix, aggregate);
        tile_before = 0.0f;
      }
    } else {
      if (lane == 0) store_status(status + t, epoch, flag_aggregate, aggregate);
      const float before = look_back(status, t, epoch);
      if (lane == 0) {
        store_status(status + t, epoch, flag_prefix, before + aggregate);
        tile_before = before;
      }
    }
  }
  __syncthreads();

  const float add = tile_before + warp_before;
  if (full) {
#pragma unroll
    for (int j = 0; j < groups; ++j) {
      const float o = add + offset[j];
      store4(output + base + j * 128, make_float4(o + v[j].x, o + v[j].y, o + v[j].z, o + v[j].w));
    }
  } else {
#pragma unroll
    for (int j = 0; j < groups; ++j) {
      const std::size_t i = base + j * 128;
      const float o = add + offset[j];
      if (i + 4 <= n) {
        store4(output + i, make_float4(o + v[j].x, o + v[j].y, o + v[j].z, o + v[j].w));
      } else {
        if (i < n) store1(output + i, o + v[j].x);
        if (i + 1 < n) store1(output + i + 1, o + v[j].y);
        if (i + 2 < n) store1(output + i + 2, o + v[j].z);
      }
    }
  }
}

} // namespace

extern "C" void solve(const float* input, float* output, int N) {
  if (N <= 0) return;
  // Scratch for the largest allowed N, zeroed once: one status word per tile.
  static unsigned long long* status = nullptr;
  static unsigned epoch = 0; // this call's number, 30 bits, never 0 (0 is "zeroed")
  static unsigned prefetch_distance = 0;
  constexpr std::size_t max_tiles = (max_n + tile - 1) / tile;
  if (status == nullptr) {
    cudaMalloc(&status, max_tiles * sizeof(unsigned long long));
    cudaMemset(status, 0, max_tiles * sizeof(unsigned long long));
    int device = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, scan_single_pass, threads, 0);
    prefetch_distance = static_cast<unsigned>(sms * per_sm / 4); // a quarter of the blocks resident at once
    cudaDeviceSynchronize();
  }
  epoch = (epoch + 1) & 0x3fffffffu;
  if (epoch == 0) epoch = 1;
  const std::size_t n = static_cast<std::size_t>(N);
  const unsigned tiles = static_cast<unsigned>((n + tile - 1) / tile);
  scan_single_pass<<<tiles, threads>>>(input, output, n, status, prefetch_distance, epoch);
  cudaDeviceSynchronize();
}
