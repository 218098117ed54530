// A candidate for ladder step 9, not a step (slower than step 8: README.md). Hopper's warpgroup MMA
// (wgmma): four warps issue one tensor-core operation together, and the tensor cores read its operands
// from shared memory themselves. Needs sm_90a, the target the judge builds for on Hopper
// (docs/problem-format.md).
//
// What it teaches: where step 8's time went, and what Hopper changed. Step 8's mma.sync is one warp's
// instruction on operands in that warp's registers: every value goes shared memory → registers before
// each 16×8×8 product, and Nsight Compute found no unit of step 8 near its limit (42% of compute, 35% of
// memory throughput) but shared-memory bank conflicts on those fragment loads. wgmma.mma_async is issued
// by a warpgroup (128 threads) for a 64×N×8 product, N up to 256 (128 here), and reads A and B from
// shared memory through a 64-bit descriptor: the tile's start address, the distance between its groups
// of 8 rows (SBO), and a swizzle mode. It runs asynchronously: wgmma.commit_group closes a batch and
// wgmma.wait_group waits for it.
//
// The layout the descriptor describes: TF32 operands must be K-major (the inner dimension contiguous),
// A and B both; only 16-bit types can be transposed on the way in. A (M×N, row-major) already is; B
// (N×K) is not, so B is transposed when its tile is written. A step covers 32 inner values, 128 bytes: a
// row of a tile is one 128-byte line, and the 128-byte swizzle stores 16-byte piece j of row r at piece
// j XOR (r mod 8), so that the 8 rows of a group, which the tensor cores read together, fall in different
// banks (without it they lie 128 bytes apart, all in the same banks). The tile must start on 1024 bytes.
//
// The pipeline: raw FP32 tiles of A and B arrive by cp.async, two steps ahead, in 16-byte copies on any
// shape (a row that does not start on 16 bytes is copied from the 16 bytes it starts in, and its offset
// is added when it is read, as in step 7). Each step then splits its raw tiles into the big and small
// TF32 tiles (3xTF32 as in steps 7 and 8), transposing B, one core matrix of 8 rows × 4 values per warp
// and store: 32 banks. Ordinary stores and the tensor cores' reads are two "proxies": fence.proxy.async
// after the stores, then the barrier, make the stores visible to wgmma. Each step's three wgmmas per
// slice of 8 (small·big, big·small, big·big) sum into zeroed registers, added to the total in FP32: the
// tensor cores' own additions truncate (step 7). Split-K over a 2-block cluster as in step 8.
//
// Measured (the bench, an H100 80GB HBM3, 200 samples, cuBLAS strict FP32 32.3 / 34.1 µs, step 8 30.2 /
// 33.6 µs in the same run, results_call8.txt): 1024×512×1024 36.8 µs (87.6% of cuBLAS), 1001×513×777
// 44.4 µs (77.0%), right on every shape of the check (worst error 0.11 of the tolerance). Without the
// swizzle (the row 09w_no_swizzle) 36.8 / 44.3 µs: the swizzle changes nothing here, so the tensor cores'
// reads of shared memory were not what held this design back. The earlier cp.async version (the row
// ws_128x128_k2_s3 of results_call7.txt, commit a34c3f3) read 28.4 µs aligned (114.2%): its split had
// neither per-element bounds nor row offsets (its copies zero-filled what lay outside, 4 bytes at a time
// on misaligned rows, 42.3 µs ragged). The split is on the critical path: each step waits for its own
// wgmmas (wait_group 0, so that its sums can be added), so the split of step s + 1 never overlaps the
// tensor cores' work on step s, and every instruction it gains is paid in full. Tried next, the knobs
// Hoisted and FlushEvery below: the rows' offsets in their 16-byte pieces once per block (p0 moves by 128
// bytes a step: they never change), bounds only in the last inner step and the last column of tiles, and
// the split of the next step beside this step's wgmmas (two TF32 sets, wait_group 1, the sums added every
// few steps). Both right, both slower (results_call9.txt, an H100: 44.6 / 53.7 µs hoisted, 42.9 / 51.8 µs
// with the overlap too, against 37.3 / 44.4 µs without either): the offsets cost a shared-memory load per
// element, and the overlap won back 1.7 µs, so the split is slow in itself rather than waiting for the
// tensor cores. Nsight Compute (results_call10_ncu_*.txt) says how: these kernels execute as many
// instructions as step 8's whole kernel (10.9–12.7 M against 11.4 M), about 40 per value of a step's
// tiles, on half its warps (one block of 8 an SM, 12.5% occupancy), each issuing every 5.7–5.9 cycles.
// Fewer instructions per value (the TF32 halves written once, by a pass of their own) or warps that only
// split beside warps that only issue wgmmas are what is left to try.
//
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace cg = cooperative_groups;

namespace {

constexpr int tile_inner = 32;          // inner values per step: one 128-byte line per row of a tile
constexpr int row_group_bytes = 1024;   // 8 rows of 128 bytes: what the swizzle permutes within
constexpr int a_raw_stride = tile_inner + 4; // 9 pieces of 16 bytes hold a row at any offset

// Where (row, inner) of a K-major tile lies, in 4-byte words from the tile's start, 128-byte swizzle.
__device__ __forceinline__ int tile_word(int row, int inner) {
  return row * tile_inner + ((((inner >> 2) ^ row) & 7) << 2) + (inner & 3);
}

// The descriptor of a K-major, 128-byte-swizzled tile: start address and SBO in 16-byte units; LBO is
// not used by this layout (1 by convention); mode 1 in bits 62-63 is the 128-byte swizzle.
__device__ __forceinline__ std::uint64_t descriptor(const void* tile) {
  const auto at = static_cast<std::uint32_t>(__cvta_generic_to_shared(tile));
  return std::uint64_t{(at & 0x3ffffu) >> 4} | (std::uint64_t{1} << 16) |
         (std::uint64_t{row_group_bytes >> 4} << 32) | (std::uint64_t{1} << 62);
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

// Pins registers to this point of the program: the compiler may move register arithmetic across an asm
// statement that does not name those registers (a "memory" clobber orders memory only).
template <int N> __device__ __forceinline__ void pin(float (&d)[N]) {
#pragma unroll
  for (int v = 0; v < N; ++v) asm volatile("" : "+f"(d[v])::"memory");
}

// 16 bytes global → shared; the bytes past `bytes` are zeroed (0: all of them, nothing read).
__device__ __forceinline__ void copy16(void* dst, const void* src, int bytes) {
  const auto d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(d), "l"(src), "r"(bytes) : "memory");
}
__device__ __forceinline__ void copies_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int Pending> __device__ __forceinline__ void copies_wait() {
  asm volatile("cp.async.wait_group %0;" ::"n"(Pending) : "memory");
}

// Which 16-byte piece a float lies in, and where in it (0-3).
__device__ __forceinline__ const float* piece_of(const float* p) {
  return reinterpret_cast<const float*>(reinterpret_cast<std::uintptr_t>(p) & ~std::uintptr_t{15});
}
__device__ __forceinline__ int offset_in_piece(const float* p) {
  return static_cast<int>(reinterpret_cast<std::uintptr_t>(p) & 15) >> 2;
}
// The bytes of the 16 at `piece` that lie before `end` (0 to 16).
__device__ __forceinline__ int bytes_before(const float* piece, const float* end) {
  const std::ptrdiff_t left = end - piece;
  return left <= 0 ? 0 : left >= 4 ? 16 : static_cast<int>(left) * 4;
}

// d += a·b for a 64×N×8 slice: a and b are descriptors, d the warpgroup's 64×N accumulator (N/2 per thread).
__device__ __forceinline__ void wgmma_n64(float (&d)[32], std::uint64_t a, std::uint64_t b, int keep = 1) {
  asm volatile("{ .reg .pred keep; setp.ne.b32 keep, %34, 0; wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 "
               "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20,"
               "%21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}"
               ", %32, %33, keep, 1, 1; }"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                 "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),
                 "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]),
                 "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]),
                 "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
               : "l"(a), "l"(b), "r"(keep));
}

__device__ __forceinline__ void wgmma_n112(float (&d)[56], std::uint64_t a, std::uint64_t b, int keep = 1) {
  asm volatile("{ .reg .pred keep; setp.ne.b32 keep, %58, 0; wgmma.mma_async.sync.aligned.m64n112k8.f32.tf32.tf32 "
               "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20,"
               "%21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39,"
               "%40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55}"
               ", %56, %57, keep, 1, 1; }"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                 "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),
                 "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]),
                 "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]),
                 "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
                 "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]),
                 "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]),
                 "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55])
               : "l"(a), "l"(b), "r"(keep));
}

__device__ __forceinline__ void wgmma_n128(float (&d)[64], std::uint64_t a, std::uint64_t b, int keep = 1) {
  asm volatile("{ .reg .pred keep; setp.ne.b32 keep, %66, 0; wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 "
               "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20,"
               "%21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39,"
               "%40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58,"
               "%59, %60, %61, %62, %63}"
               ", %64, %65, keep, 1, 1; }"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                 "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]),
                 "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]),
                 "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]),
                 "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]),
                 "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]),
                 "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]),
                 "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]),
                 "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
               : "l"(a), "l"(b), "r"(keep));
}

// keep = 0: d = a·b, the sums d held are dropped (no instruction writes d between the tensor cores' uses).
template <int N>
__device__ __forceinline__ void wgmma(float (&d)[N / 2], std::uint64_t a, std::uint64_t b, int keep = 1) {
  if constexpr (N == 64) wgmma_n64(d, a, b, keep);
  else if constexpr (N == 112) wgmma_n112(d, a, b, keep);
  else wgmma_n128(d, a, b, keep);
}

template <int WarpGroups, int TileN, int Stages, int Buffers = 1> struct config {
  static constexpr int threads = 128 * WarpGroups, warps = threads / 32;
  static constexpr int tile_m = 64 * WarpGroups;
  static constexpr int a_words = tile_m * tile_inner, b_words = TileN * tile_inner; // a TF32 tile
  static constexpr int b_raw_stride = TileN + 8;                                    // TileN/4 + 1 pieces, padded
  static constexpr int raw_words = tile_m * a_raw_stride + tile_inner * b_raw_stride;
  // Big and small of A, then of B (each on 1024 bytes), then the raw stages, then (Hoisted) the rows'
  // offsets in their 16-byte pieces.
  static constexpr int smem_bytes =
      4 * (Buffers * (2 * a_words + 2 * b_words) + Stages * raw_words + tile_m + tile_inner) + row_group_bytes;
};

// One block: a tile_m × TileN tile of C (64 rows per warpgroup), over its share of the inner dimension
// (all of it, or half with SplitK = 2: the two blocks of a cluster then add their sums).
// Hoisted (a candidate not measured yet, the bench's y_ rows): each row's offset in its 16-byte piece is
// worked out once per block, not per element and step (a step moves 128 bytes along A's rows and 32 rows
// down B, so the offsets never change), and the bounds are checked only in the last inner step and the
// last column of tiles.
// FlushEvery > 0 (the bench's o_ rows, with Hoisted): two sets of TF32 tiles, so that the split of step
// s + 1 runs while the tensor cores work on step s: each step issues its wgmmas and waits only for the
// step before (wait_group 1). The sums are read (added to the total in FP32, after wait_group 0) every
// FlushEvery steps rather than every step: ptxas serializes every wgmma of a kernel that reads a
// wgmma's registers while any wgmma is pending, and the tensor cores' truncating additions over
// FlushEvery · 32 inner values stay far inside the tolerance (they failed it over 4096).
template <int WarpGroups, int TileN, int SplitK, int Stages, bool Hoisted = false, int FlushEvery = 0>
__global__ void __cluster_dims__(1, 1, SplitK) __launch_bounds__(128 * WarpGroups, 1)
    matmul_wgmma(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N,
                 int K, bool c_vec) {
  using cfg = config<WarpGroups, TileN, Stages, (FlushEvery > 0 ? 2 : 1)>;
  constexpr int threads = cfg::threads, warps = cfg::warps, tile_m = cfg::tile_m;
  constexpr int a_words = cfg::a_words, b_words = cfg::b_words, b_raw_stride = cfg::b_raw_stride;
  extern __shared__ unsigned char smem_raw[];
  // The swizzle is a function of the address: the tiles start on 1024 bytes.
  auto* tiles = reinterpret_cast<std::uint32_t*>(
      (reinterpret_cast<std::uintptr_t>(smem_raw) + row_group_bytes - 1) & ~std::uintptr_t{row_group_bytes - 1});
  constexpr int buffer_words = 2 * a_words + 2 * b_words; // one set of TF32 tiles
  std::uint32_t* const a_big = tiles;
  std::uint32_t* const a_small = a_big + a_words;
  std::uint32_t* const b_big = a_small + a_words;
  std::uint32_t* const b_small = b_big + b_words;
  float* const raw = reinterpret_cast<float*>(tiles + (FlushEvery > 0 ? 2 : 1) * buffer_words);
  int* const a_offset = reinterpret_cast<int*>(raw + Stages * cfg::raw_words); // -1: the row is past M
  int* const b_offset = a_offset + tile_m;

  const int t = threadIdx.x, warp = t / 32, lane = t % 32;
  const int row0 = blockIdx.y * tile_m, col0 = blockIdx.x * TileN;
  const int steps_all = (N + tile_inner - 1) / tile_inner;
  const int steps_each = (steps_all + SplitK - 1) / SplitK;
  const int step_first = static_cast<int>(blockIdx.z) * steps_each;
  const int steps = max(0, min(steps_all, step_first + steps_each) - step_first);
  const float* const a_end = A + static_cast<std::size_t>(M) * N;
  const float* const b_end = B + static_cast<std::size_t>(N) * K;

  // Step s's raw tiles: each row of A's from the 16 bytes its first value lies in, 9 pieces; each row of
  // B's likewise, TileN/4 + 1 pieces. What lies past the matrix is zeroed; what lies past a row (the next
  // row's values) is left to the split, which zeroes it.
  const auto fetch = [&](int step) {
    float* ra = raw + (step % Stages) * cfg::raw_words;
    float* rb = ra + tile_m * a_raw_stride;
    const int p0 = (step_first + step) * tile_inner;
    for (int e = t; e < tile_m * (a_raw_stride / 4); e += threads) {
      const int r = e / (a_raw_stride / 4), piece = e % (a_raw_stride / 4);
      const int gr = min(row0 + r, M - 1);
      const float* at = piece_of(A + static_cast<std::size_t>(gr) * N + p0) + 4 * piece;
      copy16(ra + r * a_raw_stride + 4 * piece, at, row0 + r < M ? bytes_before(at, a_end) : 0);
    }
    for (int e = t; e < tile_inner * (b_raw_stride / 4 - 1); e += threads) {
      const int p = e / (b_raw_stride / 4 - 1), piece = e % (b_raw_stride / 4 - 1);
      const int gp = min(p0 + p, N - 1);
      const float* at = piece_of(B + static_cast<std::size_t>(gp) * K + col0) + 4 * piece;
      copy16(rb + p * b_raw_stride + 4 * piece, at, p0 + p < N ? bytes_before(at, b_end) : 0);
    }
  };
  // Step s's raw tiles → its big and small TF32 tiles: each warp writes whole core matrices (8 rows × 4
  // inner values), a lane per element.
  const auto split = [&](int step, int buffer = 0) {
    std::uint32_t* const a_big = tiles + buffer * buffer_words;
    std::uint32_t* const a_small = a_big + a_words;
    std::uint32_t* const b_big = a_small + a_words;
    std::uint32_t* const b_small = b_big + b_words;
    const float* ra = raw + (step % Stages) * cfg::raw_words;
    const float* rb = ra + tile_m * a_raw_stride;
    const int p0 = (step_first + step) * tile_inner;
    const bool whole_step = p0 + tile_inner <= N, whole_columns = col0 + TileN <= K;
#pragma unroll(FlushEvery > 0 ? 4 : a_words / threads)
    for (int i = 0; i < a_words / threads; ++i) {
      const int core = warp + i * warps; // tile_m/8 groups of rows × 8 along the inner dimension
      const int r = core / 8 * 8 + lane / 4, c = core % 8 * 4 + lane % 4;
      const int gr = row0 + r;
      float x = 0.0f;
      if constexpr (Hoisted) {
        const int offset = a_offset[r];
        if (offset >= 0 && (whole_step || p0 + c < N)) x = ra[r * a_raw_stride + offset + c];
      } else if (gr < M && p0 + c < N) {
        x = ra[r * a_raw_stride + offset_in_piece(A + static_cast<std::size_t>(gr) * N + p0) + c];
      }
      const int w = tile_word(r, c);
      split_tf32(x, a_big[w], a_small[w]);
    }
#pragma unroll(FlushEvery > 0 ? 4 : b_words / threads)
    for (int i = 0; i < b_words / threads; ++i) {
      const int core = warp + i * warps;
      const int n = core / 8 * 8 + lane / 4, p = core % 8 * 4 + lane % 4;
      const int gp = p0 + p;
      float x = 0.0f;
      if constexpr (Hoisted) {
        if ((whole_step || gp < N) && (whole_columns || col0 + n < K)) x = rb[p * b_raw_stride + b_offset[p] + n];
      } else if (gp < N && col0 + n < K) {
        x = rb[p * b_raw_stride + offset_in_piece(B + static_cast<std::size_t>(gp) * K + col0) + n];
      }
      const int w = tile_word(n, p);
      split_tf32(x, b_big[w], b_small[w]);
    }
    stores_to_tensor_cores();
  };

  if constexpr (Hoisted) {
    // Read by the first split, after the barrier that opens the first step.
    const int p_first = step_first * tile_inner;
    for (int r = t; r < tile_m; r += threads)
      a_offset[r] = row0 + r < M ? offset_in_piece(A + static_cast<std::size_t>(row0 + r) * N + p_first) : -1;
    for (int p = t; p < tile_inner; p += threads)
      b_offset[p] = offset_in_piece(B + static_cast<std::size_t>(min(p_first + p, N - 1)) * K + col0);
  }
  float acc[TileN / 2], part[TileN / 2];
#pragma unroll
  for (int v = 0; v < TileN / 2; ++v) acc[v] = 0.0f;
#pragma unroll
  for (int s = 0; s < Stages - 1; ++s) {
    if (s < steps) fetch(s);
    copies_commit();
  }
  const int group = t / 128; // this warpgroup's 64 rows of the tile
  const std::uint64_t a_big_at = descriptor(a_big + group * 64 * tile_inner);
  const std::uint64_t a_small_at = descriptor(a_small + group * 64 * tile_inner);
  const std::uint64_t b_big_at = descriptor(b_big), b_small_at = descriptor(b_small);
  if constexpr (FlushEvery > 0) {
    // Groups of FlushEvery steps, unrolled, so that every wait is at a place ptxas can count from: one
    // whose count depends on a branch makes it wait for all wgmmas before the loop's next turn.
    for (int first = 0; first < steps; first += FlushEvery) {
#pragma unroll
      for (int j = 0; j < FlushEvery; ++j) {
        const int s = first + j, b = j & 1; // FlushEvery is even: step s uses TF32 set s % 2
        copies_wait<Stages - 2>();
        __syncthreads(); // step s's raw tiles are in; the wgmmas of step s - 2 (set b's last) are done
        if (s + Stages - 1 < steps) fetch(s + Stages - 1); // into the stage split(s - 1) has finished with
        copies_commit();
        if (s < steps) split(s, b);
        __syncthreads();
        if (s < steps) {
          wgmma_fence();
          const std::uint64_t shift = static_cast<std::uint64_t>(b * (buffer_words * 4 / 16)); // in descriptor units
#pragma unroll
          for (int k = 0; k < tile_inner / 8; ++k) {
            const std::uint64_t at = shift + static_cast<std::uint64_t>(2 * k);
            // The group's first wgmma drops the sums already added: zeroing them with ordinary writes
            // would make ptxas wait for the wgmmas in flight.
            wgmma<TileN>(part, a_small_at + at, b_big_at + at, k > 0 || j > 0);
            wgmma<TileN>(part, a_big_at + at, b_small_at + at);
            wgmma<TileN>(part, a_big_at + at, b_big_at + at);
          }
        }
        wgmma_commit();
        if (j + 1 < FlushEvery) asm volatile("wgmma.wait_group.sync.aligned 1;" ::: "memory"); // s - 1 is done
      }
      wgmma_wait_all();
      pin(part); // the adds stay after the wait
#pragma unroll
      for (int v = 0; v < TileN / 2; ++v) acc[v] += part[v];
    }
  } else
  for (int s = 0; s < steps; ++s) {
    copies_wait<Stages - 2>();
    __syncthreads(); // step s's raw tiles are in; the wgmmas of step s - 1 are done with the TF32 tiles
    split(s);
    __syncthreads();
    if (s + Stages - 1 < steps) fetch(s + Stages - 1);
    copies_commit();
#pragma unroll
    for (int v = 0; v < TileN / 2; ++v) part[v] = 0.0f;
    wgmma_fence(); // the zeroed registers are the wgmmas' accumulator: ordinary writes come first
#pragma unroll
    for (int k = 0; k < tile_inner / 8; ++k) {
      // The next 8 inner values are 32 bytes further along each line: 2 in descriptor units.
      const std::uint64_t at = static_cast<std::uint64_t>(2 * k);
      wgmma<TileN>(part, a_small_at + at, b_big_at + at);
      wgmma<TileN>(part, a_big_at + at, b_small_at + at);
      wgmma<TileN>(part, a_big_at + at, b_big_at + at);
    }
    wgmma_commit();
    wgmma_wait_all();
#pragma unroll
    for (int v = 0; v < TileN / 2; ++v) acc[v] += part[v];
  }
  copies_wait<0>();

  if constexpr (SplitK > 1) {
    // Block 1 of the cluster hands its sums to block 0 through distributed shared memory.
    __syncthreads();
    cg::cluster_group cluster = cg::this_cluster();
    float* swap = reinterpret_cast<float*>(tiles);
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

template <int WarpGroups, int TileN, int SplitK, int Stages, bool Hoisted = false, int FlushEvery = 0>
void launch(const float* A, const float* B, float* C, int M, int N, int K) {
  using cfg = config<WarpGroups, TileN, Stages, (FlushEvery > 0 ? 2 : 1)>;
  static_assert(FlushEvery % 2 == 0, "a group of steps starts on TF32 set 0");
  static_assert(cfg::smem_bytes <= 227 * 1024, "fits an SM's shared memory");
  static_assert(cfg::smem_bytes - row_group_bytes >= cfg::threads * TileN / 2 * 4, "the split-K swap fits");
  auto kernel = matmul_wgmma<WarpGroups, TileN, SplitK, Stages, Hoisted, FlushEvery>;
  cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, cfg::smem_bytes);
  const bool c_vec = K % 2 == 0 && reinterpret_cast<std::uintptr_t>(C) % 8 == 0;
  const dim3 grid((K + TileN - 1) / TileN, (M + cfg::tile_m - 1) / cfg::tile_m, SplitK);
  kernel<<<grid, cfg::threads, cfg::smem_bytes>>>(A, B, C, M, N, K, c_vec);
}

} // namespace

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  launch<2, 128, 2, 3>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
