// A candidate for ladder step 9, not a step (slower than step 8: README.md). Hopper's warpgroup MMA
// (wgmma): four warps issue one tensor-core operation together, its operands read from shared memory by
// the tensor cores themselves. Needs sm_90a, the target the judge
// builds for on Hopper (docs/problem-format.md).
//
// What it teaches: where step 8's time went. Its mma.sync is a warp's instruction on operands in the
// warp's registers: every value of A and B goes shared memory → registers (ldmatrix-like loads, bank
// conflicts included) before each 16×8×8 product, and Nsight Compute found no unit of step 8 near its limit
// (42% of compute, 35% of memory throughput). wgmma.mma_async is issued by a warpgroup (128 threads) for
// a 64×N×8 product, N up to 256, and reads A and B from shared memory through a 64-bit descriptor: the
// start address, the distance between 8×16-byte "core matrices" along the inner dimension (LBO) and
// along the rows (SBO), and a swizzle mode. It is asynchronous: the warps go on loading the next tile
// while it runs, and wgmma.wait_group is where they meet it again.
//
// The layout: TF32 operands must be K-major (their inner dimension contiguous) in shared memory, A and
// B both; only 16-bit types can be transposed on the way in. A (M×N, row-major) already is; B (N×K,
// row-major) is not, so the loader transposes B while it stores it. Each tile is laid out as core
// matrices without swizzling: the 8 rows × 4 values of one core matrix are 128 contiguous bytes, a row
// of 32 inner values is 8 core matrices (LBO = 128), and the next 8 rows start 1024 bytes on (SBO).
// The loader's lanes each store one element of a core matrix, so B's stores hit 32 banks; A's, whose
// global reads are kept a full 32-byte sector wide, hit 16 (two-way conflicts).
//
// 3xTF32 as in steps 7 and 8: each value is split once, when it is stored, into a TF32 "big" part and
// the TF32 rest, both kept in shared memory (four tiles per stage), and each slice of 8 inner values
// runs three wgmmas into one accumulator: small·big, big·small, then big·big. As in step 7, each step's
// 32 inner values are summed into zeroed registers and added to the total in FP32: the tensor cores'
// own additions truncate.
//
// Writing shared memory with ordinary stores and reading it through wgmma are two "proxies": a
// fence.proxy.async after the stores, then the barrier, makes the stores visible to the tensor cores.
//
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace cg = cooperative_groups;

namespace {

constexpr int tile_inner = 32;                            // inner values per pipeline step
constexpr int core_bytes = 128;                           // a core matrix: 8 rows × 4 TF32 values
constexpr int row_group_bytes = tile_inner / 4 * core_bytes; // 8 rows × 32 inner values

// Where (row, inner) of a K-major tile lies, in 4-byte words from the tile's start.
__device__ __forceinline__ int tile_word(int row, int inner) {
  return (row >> 3) * (row_group_bytes / 4) + (inner >> 2) * (core_bytes / 4) + (row & 7) * 4 + (inner & 3);
}

// The descriptor of a K-major tile without swizzling: start address, LBO and SBO, each in 16-byte units.
__device__ __forceinline__ std::uint64_t descriptor(const void* tile) {
  const auto at = static_cast<std::uint32_t>(__cvta_generic_to_shared(tile));
  return std::uint64_t{(at & 0x3ffffu) >> 4} | (std::uint64_t{core_bytes >> 4} << 16) |
         (std::uint64_t{row_group_bytes >> 4} << 32);
}

// x ≈ big + small, each a TF32 value: big is x rounded to TF32, small what that left out, truncated.
__device__ __forceinline__ void split_tf32(float x, std::uint32_t& big, std::uint32_t& small) {
  big = (__float_as_uint(x) + 0x1000u) & 0xffffe000u;
  small = __float_as_uint(x - __uint_as_float(big)) & 0xffffe000u;
}

__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wgmma_wait_all() { asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory"); }
__device__ __forceinline__ void stores_to_tensor_cores() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

// d += a·b for a 64×N×8 slice: a and b are descriptors, d the warpgroup's 64×N accumulator (N/2 per thread).
__device__ __forceinline__ void wgmma_n64(float (&d)[32], std::uint64_t a, std::uint64_t b) {
  asm volatile("wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 "
               "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20,"
               "%21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}"
               ", %32, %33, 1, 1, 1;"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                 "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),
                 "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]),
                 "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]),
                 "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
               : "l"(a), "l"(b));
}

__device__ __forceinline__ void wgmma_n112(float (&d)[56], std::uint64_t a, std::uint64_t b) {
  asm volatile("wgmma.mma_async.sync.aligned.m64n112k8.f32.tf32.tf32 "
               "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20,"
               "%21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39,"
               "%40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55}"
               ", %56, %57, 1, 1, 1;"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                 "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),
                 "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]),
                 "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]),
                 "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
                 "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]),
                 "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]),
                 "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55])
               : "l"(a), "l"(b));
}

__device__ __forceinline__ void wgmma_n128(float (&d)[64], std::uint64_t a, std::uint64_t b) {
  asm volatile("wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 "
               "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20,"
               "%21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39,"
               "%40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58,"
               "%59, %60, %61, %62, %63}"
               ", %64, %65, 1, 1, 1;"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                 "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),
                 "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]),
                 "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]),
                 "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
                 "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]),
                 "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]),
                 "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]),
                 "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
               : "l"(a), "l"(b));
}

template <int N> __device__ __forceinline__ void wgmma(float (&d)[N / 2], std::uint64_t a, std::uint64_t b) {
  if constexpr (N == 64) wgmma_n64(d, a, b);
  else if constexpr (N == 112) wgmma_n112(d, a, b);
  else wgmma_n128(d, a, b);
}

// One block: a TileM × TileN tile of C (TileM = 64 per warpgroup), over its share of the inner dimension
// (all of it, or half with SplitK = 2: the two blocks of a cluster then add their sums as step 8 does).
template <int WarpGroups, int TileN, int SplitK, int MinBlocks>
__global__ void __cluster_dims__(1, 1, SplitK) __launch_bounds__(128 * WarpGroups, MinBlocks)
    matmul_wgmma(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N,
                 int K, bool c_vec) {
  constexpr int threads = 128 * WarpGroups, warps = threads / 32;
  constexpr int TileM = 64 * WarpGroups;
  constexpr int a_words = TileM * tile_inner, b_words = TileN * tile_inner;
  constexpr int stage_words = 2 * a_words + 2 * b_words; // big and small of A, then of B
  constexpr int a_loads = a_words / threads, b_loads = b_words / threads;
  static_assert(TileN % 8 == 0 && a_words % threads == 0 && b_words % threads == 0);
  extern __shared__ __align__(128) std::uint32_t smem[];

  const int t = threadIdx.x, warp = t / 32, lane = t % 32;
  const int row0 = blockIdx.y * TileM, col0 = blockIdx.x * TileN;
  const int steps_all = (N + tile_inner - 1) / tile_inner;
  const int steps_each = (steps_all + SplitK - 1) / SplitK;
  const int step_first = static_cast<int>(blockIdx.z) * steps_each;
  const int steps = max(0, min(steps_all, step_first + steps_each) - step_first);

  // Each warp moves chunks: of A, 4 rows × 8 inner values (a 32-byte sector per row); of B, 4 inner
  // values × 8 columns, which is one core matrix of the transposed tile.
  float a_next[a_loads], b_next[b_loads];
  const auto a_place = [&](int i, int& r, int& c) {
    const int chunk = warp + i * warps;
    r = chunk / 4 * 4 + lane / 8;
    c = chunk % 4 * 8 + lane % 8;
  };
  const auto b_place = [&](int i, int& n, int& p) {
    const int chunk = warp + i * warps;
    n = chunk % (TileN / 8) * 8 + lane % 8;
    p = chunk / (TileN / 8) * 4 + lane / 8;
  };
  const auto load = [&](int step) {
    const int p0 = (step_first + step) * tile_inner;
#pragma unroll
    for (int i = 0; i < a_loads; ++i) {
      int r, c;
      a_place(i, r, c);
      const int gr = row0 + r, gc = p0 + c;
      a_next[i] = gr < M && gc < N ? A[static_cast<std::size_t>(gr) * N + gc] : 0.0f;
    }
#pragma unroll
    for (int i = 0; i < b_loads; ++i) {
      int n, p;
      b_place(i, n, p);
      const int gn = col0 + n, gp = p0 + p;
      b_next[i] = gn < K && gp < N ? B[static_cast<std::size_t>(gp) * K + gn] : 0.0f;
    }
  };
  const auto store = [&](int stage) {
    std::uint32_t* a_big = smem + stage * stage_words;
    std::uint32_t* a_small = a_big + a_words;
    std::uint32_t* b_big = a_small + a_words;
    std::uint32_t* b_small = b_big + b_words;
#pragma unroll
    for (int i = 0; i < a_loads; ++i) {
      int r, c;
      a_place(i, r, c);
      const int w = tile_word(r, c);
      split_tf32(a_next[i], a_big[w], a_small[w]);
    }
#pragma unroll
    for (int i = 0; i < b_loads; ++i) {
      int n, p;
      b_place(i, n, p);
      const int w = tile_word(n, p);
      split_tf32(b_next[i], b_big[w], b_small[w]);
    }
    stores_to_tensor_cores();
  };

  // The tensor cores' own additions truncate; each step sums its 32 inner values into zeroed registers
  // (part), which are added to the total in FP32, round to nearest (step 7 explains why).
  float acc[TileN / 2], part[TileN / 2];
#pragma unroll
  for (int v = 0; v < TileN / 2; ++v) acc[v] = 0.0f;
  if (steps > 0) {
    load(0);
    store(0);
  }
  __syncthreads();

  const int group = t / 128; // this warpgroup's 64 rows of the tile
  for (int s = 0; s < steps; ++s) {
    const std::uint32_t* stage = smem + (s & 1) * stage_words;
    const std::uint64_t a_big = descriptor(stage + group * 64 / 8 * (row_group_bytes / 4));
    const std::uint64_t a_small = descriptor(stage + a_words + group * 64 / 8 * (row_group_bytes / 4));
    const std::uint64_t b_big = descriptor(stage + 2 * a_words);
    const std::uint64_t b_small = descriptor(stage + 2 * a_words + b_words);
#pragma unroll
    for (int v = 0; v < TileN / 2; ++v) part[v] = 0.0f;
    wgmma_fence(); // the zeroed registers are the wgmmas' accumulator: ordinary writes come first
#pragma unroll
    for (int k = 0; k < tile_inner / 8; ++k) {
      // A slice of 8 inner values is two core matrices further on: 256 bytes, 16 in descriptor units.
      const std::uint64_t at = static_cast<std::uint64_t>(k) * (2 * core_bytes >> 4);
      wgmma<TileN>(part, a_small + at, b_big + at);
      wgmma<TileN>(part, a_big + at, b_small + at);
      wgmma<TileN>(part, a_big + at, b_big + at);
    }
    wgmma_commit();
    // While the tensor cores work on this stage, the next tile comes in and goes to the other stage,
    // which the wgmmas of the step before have finished reading (they were waited for).
    if (s + 1 < steps) {
      load(s + 1);
      store((s + 1) & 1);
    }
    wgmma_wait_all();
#pragma unroll
    for (int v = 0; v < TileN / 2; ++v) acc[v] += part[v];
    __syncthreads();
  }

  if constexpr (SplitK > 1) {
    // Block 1 of the cluster hands its sums to block 0 through distributed shared memory.
    cg::cluster_group cluster = cg::this_cluster();
    float* swap = reinterpret_cast<float*>(smem);
    if (cluster.block_rank() != 0) {
#pragma unroll
      for (int v = 0; v < TileN / 2; ++v) swap[v * threads + t] = acc[v];
    }
    cluster.sync();
    if (cluster.block_rank() == 0) {
      const float* theirs = cluster.map_shared_rank(swap, 1);
#pragma unroll
      for (int v = 0; v < TileN / 2; ++v) acc[v] += theirs[v * threads + t];
    }
    cluster.sync(); // their shared memory must outlive the reads
    if (cluster.block_rank() != 0) return;
  }

  // The accumulator's layout: warp w of the warpgroup holds rows 16w..16w+15; in each 8-column slice,
  // lane l holds rows l/4 and l/4 + 8, columns 2(l%4) and 2(l%4) + 1.
  const int row_base = row0 + group * 64 + (warp % 4) * 16 + lane / 4;
  const int col_base = col0 + 2 * (lane % 4);
#pragma unroll
  for (int n8 = 0; n8 < TileN / 8; ++n8)
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int i = row_base + 8 * h, j = col_base + 8 * n8;
      if (i >= M) continue;
      const float x = acc[4 * n8 + 2 * h], y = acc[4 * n8 + 2 * h + 1];
      float* out = C + static_cast<std::size_t>(i) * K + j;
      if (c_vec && j + 1 < K) {
        *reinterpret_cast<float2*>(out) = make_float2(x, y);
      } else {
        if (j < K) out[0] = x;
        if (j + 1 < K) out[1] = y;
      }
    }
}

template <int WarpGroups, int TileN, int SplitK, int MinBlocks = 1>
void launch(const float* A, const float* B, float* C, int M, int N, int K) {
  constexpr int TileM = 64 * WarpGroups;
  constexpr int smem_bytes = 2 * (2 * TileM + 2 * TileN) * tile_inner * 4; // two stages
  static_assert(smem_bytes >= 128 * WarpGroups * TileN / 2 * 4, "the split-K swap fits the stages");
  auto kernel = matmul_wgmma<WarpGroups, TileN, SplitK, MinBlocks>;
  cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes);
  const bool c_vec = K % 2 == 0 && reinterpret_cast<std::uintptr_t>(C) % 8 == 0;
  const dim3 grid((K + TileN - 1) / TileN, (M + TileM - 1) / TileM, SplitK);
  kernel<<<grid, 128 * WarpGroups, smem_bytes>>>(A, B, C, M, N, K, c_vec);
}

} // namespace

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  launch<2, 128, 2>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
