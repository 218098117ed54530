// Ladder step 5: CUB's own tile shape for floats on sm_90, and a scan that is one launch and nothing else.
//
// What it teaches: a single-pass scan pays for every launch and memset around it, and the tile shape that
// keeps the most bytes in flight per SM is a small block with many values per thread.
//  - The tile is CUB's sm_90 float tuning: 128 threads × 24 values (3072 per tile). Each warp owns 768
//    consecutive values and loads them as six warp-striped float4 groups straight into registers (every
//    instruction 512 contiguous bytes); each thread scans its groups serially and six interleaved warp
//    scans (shuffles) give every group's offset. Small blocks with few registers fit many to an SM
//    (eight or more), so the SM keeps about 100 KB of loads in flight while some of its tiles wait.
//  - The look-back is CUB's order: the block reduces, one thread publishes the tile's total, warp 0 walks
//    back 32 predecessors per trip (a short __nanosleep only while one of those it needs has published
//    nothing), publishes the inclusive prefix and hands the sum before the tile to the block.
//  - No memset before the kernel. Each status word carries the call's number (an epoch) next to its flag,
//    so a word left by an earlier call reads as "nothing published". Tiles are numbered from a 64-bit
//    ticket counter that is never cleared: the host knows how many tickets earlier calls took and passes
//    that base, and a tile is its ticket minus the base. Tiles still come in the order blocks start, so
//    a tile only ever waits on tiles that are running.
//  - Scratch (the counter and one status word per tile of the largest allowed N) is allocated and zeroed
//    once, on the first call.
//
// On the H200 (2026-12-02): 53.8 µs at N = 2^24 (101.4% of CUB's DeviceScan, 54.5 µs in the same run),
// 78.1 µs at N = 25,000,000 (97.6%; CUB 76.3 µs), against step 4's 68.0 and 95.5 µs. Step 4's kernel with
// the same epoch and tickets (no memset) read 60.4 and 87.3 µs; a persistent kernel filling a ring of
// three shared-memory buffers with bulk copies, 56.7 and 89.3 µs.
//
// Verdict: accepted.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace {

constexpr int warps = 4;
constexpr int threads = warps * 32;
constexpr int groups = 6;                   // float4 groups per thread
constexpr int warp_items = 32 * 4 * groups; // 768 values per warp
constexpr int tile = warps * warp_items;    // 3072 values per tile
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

/// The flag of a status word: "none" when it was written by another call.
__device__ __forceinline__ unsigned flag_of(unsigned long long word, unsigned epoch) {
  const unsigned high = static_cast<unsigned>(word >> 32);
  return (high >> 2) == epoch ? (high & 3u) : flag_none;
}

__device__ __forceinline__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

/// One whole warp, tile t > 0: the sum of every value before tile t, from the predecessors' status.
__device__ float look_back(const unsigned long long* status, long long t, unsigned epoch) {
  const int lane = threadIdx.x % 32;
  float exclusive = 0.0f;
  long long newest = t - 1; // the nearest predecessor not yet added
  while (true) {
    const long long p = newest - lane;
    unsigned flag;
    float value;
    unsigned prefixes, missing;
    unsigned sleep_ns = 32;
    while (true) {
      if (p < 0) { // before tile 0 there is nothing: a prefix of 0 ends the walk
        flag = flag_prefix, value = 0.0f;
      } else {
        const unsigned long long w = load_status(status + p);
        flag = flag_of(w, epoch), value = __uint_as_float(static_cast<unsigned>(w));
      }
      prefixes = __ballot_sync(0xffffffffu, flag == flag_prefix);
      missing = __ballot_sync(0xffffffffu, flag == flag_none);
      // The lanes that matter: up to and including the nearest prefix, or all 32 when there is none.
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

__global__ void __launch_bounds__(threads, 8)
    scan_single_pass(const float* __restrict__ input, float* __restrict__ output, std::size_t n,
                     unsigned long long* status, unsigned long long* tickets, unsigned long long ticket_base,
                     unsigned epoch) {
  __shared__ float warp_total[warps];
  __shared__ float tile_before;
  __shared__ unsigned tile_id;
  if (threadIdx.x == 0) tile_id = static_cast<unsigned>(atomicAdd(tickets, 1ull) - ticket_base);
  __syncthreads();
  const unsigned t = tile_id;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;

  const std::size_t tile_base = static_cast<std::size_t>(t) * tile;
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
        v[j].w = 0.0f; // i + 3 < n would have taken the branch above
      }
    }
  }

  // Inclusive scan inside each group, then a warp scan of the group totals (six at once).
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
  float running = 0.0f; // the sum of the warp's earlier groups
#pragma unroll
  for (int j = 0; j < groups; ++j) {
    const float before = __shfl_up_sync(0xffffffffu, scan[j], 1);
    const float group_total = __shfl_sync(0xffffffffu, scan[j], 31);
    offset[j] = running + (lane == 0 ? 0.0f : before);
    running += group_total;
  }
  if (lane == 0) warp_total[warp] = running;
  __syncthreads();

  // Every thread adds the warp totals in the same order: the same tile total everywhere.
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
      reinterpret_cast<float4*>(output + base + j * 128)[0] =
          make_float4(o + v[j].x, o + v[j].y, o + v[j].z, o + v[j].w);
    }
  } else {
#pragma unroll
    for (int j = 0; j < groups; ++j) {
      const std::size_t i = base + j * 128;
      const float o = add + offset[j];
      if (i + 4 <= n) {
        reinterpret_cast<float4*>(output + i)[0] = make_float4(o + v[j].x, o + v[j].y, o + v[j].z, o + v[j].w);
      } else {
        if (i < n) output[i] = o + v[j].x;
        if (i + 1 < n) output[i + 1] = o + v[j].y;
        if (i + 2 < n) output[i + 2] = o + v[j].z;
      }
    }
  }
}

} // namespace

extern "C" void solve(const float* input, float* output, int N) {
  if (N <= 0) return;
  // Scratch for the largest allowed N, zeroed once: the ticket counter, then one status word per tile.
  static unsigned long long* state = nullptr;
  static unsigned long long ticket_base = 0; // tickets taken by earlier calls
  static unsigned epoch = 0;                 // this call's number, 30 bits, never 0 (0 is "zeroed")
  constexpr std::size_t max_tiles = (max_n + tile - 1) / tile;
  if (state == nullptr) {
    cudaMalloc(&state, (1 + max_tiles) * sizeof(unsigned long long));
    cudaMemset(state, 0, (1 + max_tiles) * sizeof(unsigned long long));
    cudaDeviceSynchronize();
  }
  epoch = (epoch + 1) & 0x3fffffffu;
  if (epoch == 0) epoch = 1;
  const std::size_t n = static_cast<std::size_t>(N);
  const unsigned tiles = static_cast<unsigned>((n + tile - 1) / tile);
  scan_single_pass<<<tiles, threads>>>(input, output, n, state + 1, state, ticket_base, epoch);
  ticket_base += tiles;
  cudaDeviceSynchronize();
}
