// Step-9 candidates: NOT a ladder step. In the first two runs none reached cuBLAS on the ragged shape; in
// the later two (results_call5/6.txt) the 112-wide tiles did, and went into step 8's solve() for shapes
// like 1001×777. None is faster than step 8 on both shapes by more than the noise.
// Step 8's kernel (08_split_k_cluster.cu) as one template with four more knobs, each a candidate idea:
//   TileInner  the step along the inner dimension (8's is 32; 16 and 64 tried)
//   APad       padding of an A tile row in floats (8's is 8: a stride of 40 puts fragment rows g and g + 4
//              on the same banks, a 2-way conflict; 4, a stride of 36, is conflict-free when the rows are
//              16-byte aligned; ragged rows keep some conflict either way)
//   Trim       the last step of a ragged inner dimension computes only the slices of 8 that hold values
//              (513 = 16·32 + 1: the 17th step holds one value, yet 8 computes all 32)
//   Presplit   each value of a step is split into (big, small) once, by one thread, into a conflict-free
//              copy in shared memory, instead of by every warp that uses it; one more barrier per step
// Measured on the H200 (bench, results_call3.txt and results_call4.txt; cuBLAS 32.4/34.7–34.8 and
// 32.4/34.5 µs, step 8 29.7–29.9/35.6–35.9 µs in the same runs; aligned/ragged µs, 300 samples; spills
// as ptxas of CUDA 13.0 reports them on the CPU machine):
//   Trim                      30.6/35.5   (ragged −1%, aligned +3%: the second copy of the step's code
//                                          spills 76 bytes instead of 56)
//   APad 4                    29.7/35.6   (no change: likely not the limit)
//   APad 4 + Trim             30.2/35.3
//   TileInner 16, 4 stages, APad 4 (no Trim)   29.8/34.9 and 29.8/35.0 (the best on the ragged shape:
//                                          98.5–99.5% of cuBLAS; 4 bytes spilled; aligned unchanged)
//   128×64 tiles, APad 4 + Trim                30.1/35.1 and 30.0/35.0
//   Presplit, 2 stages        50.0/58.0   (much slower: the split pass and its barrier serialise every
//                                          step, likely (not profiled); 3 stages at 1 block per SM 54.3/62.7;
//                                          128×64 42.1/49.9)
//   split-K 3 over a 3-block cluster: 45.2/46.9; TileInner 64 with 2 stages: 40.3/46.6
// Every candidate passed the bench's correctness shapes (worst error 0.087–0.15 of the tolerance).
// solve() here is the best ragged candidate (TileInner 16, 4 stages, APad 4), kept for the next attempt.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdint>

namespace cg = cooperative_groups;

namespace {

// x ≈ big + small, each a TF32 value (10 explicit mantissa bits). big is x rounded to nearest (ties away)
// by adding half a TF32 unit and clearing the 13 low bits; small is what that left out, truncated to TF32.
// Together they carry about 21 bits of x, against 24 in FP32 and 11 in TF32 alone. (cvt.rna.tf32.f32
// would do the rounding too, but on sm_90 it compiles to a sequence of compares and selects.)
__device__ __forceinline__ void split_tf32(float x, std::uint32_t& big, std::uint32_t& small) {
  big = (__float_as_uint(x) + 0x1000u) & 0xffffe000u;
  small = __float_as_uint(x - __uint_as_float(big)) & 0xffffe000u;
}
__device__ __forceinline__ std::uint32_t to_tf32(float x) { return (__float_as_uint(x) + 0x1000u) & 0xffffe000u; }

// d += a·b on one 16×8×8 tile: a 16×8 (row-major fragment), b 8×8 (column-major fragment), d 16×8 in FP32.
__device__ __forceinline__ void mma_tf32(float* d, const std::uint32_t* a, const std::uint32_t* b) {
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
               "{%0,%1,%2,%3};"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

// Copies 16 bytes global → shared without passing through registers; the bytes past src_bytes are zeroed.
__device__ __forceinline__ void copy16(float* dst, const float* src, int src_bytes) {
  const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(d), "l"(src), "r"(src_bytes));
}
__device__ __forceinline__ void copy4(float* dst, const float* src, int src_bytes) {
  const unsigned d = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(d), "l"(src), "r"(src_bytes));
}
__device__ __forceinline__ void commit() { asm volatile("cp.async.commit_group;"); }
template <int Pending> __device__ __forceinline__ void wait_pending() {
  asm volatile("cp.async.wait_group %0;" ::"n"(Pending));
}

// Copies the 16-byte aligned chunk at element offset `at` of `m` (when at >= 0) with its first `valid`
// elements (0 to 4; the rest zero). A chunk that would start before the matrix (only possible when the
// matrix itself is not 16-byte aligned) goes element by element.
__device__ __forceinline__ void copy_chunk(float* dst, const float* m, int at, int valid) {
  valid = valid < 0 ? 0 : (valid > 4 ? 4 : valid);
  if (at >= 0) {
    copy16(dst, valid > 0 ? m + at : m, valid * 4);
  } else {
    for (int k = 0; k < 4; ++k) {
      const bool in = k < valid && at + k >= 0;
      copy4(dst + k, in ? m + at + k : m, in ? 4 : 0);
    }
  }
}

// The misalignment, in floats, of element `offset` of `m` from a 16-byte boundary.
__device__ __forceinline__ int shift_of(const float* m, int offset) {
  return static_cast<int>((reinterpret_cast<std::uintptr_t>(m) / 4 + static_cast<unsigned>(offset)) % 4);
}

template <int TileM, int TileN, int WarpM, int WarpN, int Stages, int TileInner, int APad> struct config {
  static constexpr int tile_inner = TileInner; // step along the inner dimension N
  static constexpr int warps = (TileM / WarpM) * (TileN / WarpN);
  static constexpr int threads = warps * 32;
  // A row of a tile holds its 16-byte chunks as they lie in memory: the window starts `shift` floats
  // into the first one, so a row spans one chunk more than the window when shift > 0.
  static constexpr int a_chunks = tile_inner / 4 + 1; // per row of the A tile
  static constexpr int b_chunks = TileN / 4 + 1;      // per row of the B tile
  static constexpr int a_stride = tile_inner + APad;
  static constexpr int b_stride = TileN + 8;
  static constexpr int a_floats = TileM * a_stride;
  static constexpr int b_floats = tile_inner * b_stride;
  static constexpr int a_slots = (TileM * a_chunks + threads - 1) / threads; // chunks per thread per step
  static constexpr int b_slots = (tile_inner * b_chunks + threads - 1) / threads;
  static constexpr int smem_bytes = Stages * (a_floats + b_floats) * 4;
  // The split copy of one step: (big, small) pairs, each row padded by 4 pairs so that the fragment loads
  // (8 bytes per thread, a half-warp at a time) hit 32 distinct banks.
  static constexpr int ca_stride = tile_inner + 4;
  static constexpr int cb_stride = TileN + 4;
  static constexpr int conv_bytes = (TileM * ca_stride + tile_inner * cb_stride) * 8;
};

template <int TileM, int TileN, int WarpM, int WarpN, int Stages, bool Split, int SplitK, int MinBlocks, int TileInner,
          int APad, bool Trim, bool Presplit>
__global__ void __launch_bounds__(config<TileM, TileN, WarpM, WarpN, Stages, TileInner, APad>::threads, MinBlocks)
    __cluster_dims__(1, 1, SplitK) matmul_tc(const float* __restrict__ A, const float* __restrict__ B,
                                             float* __restrict__ C, int M, int N, int K, bool c_vec) {
  using cfg = config<TileM, TileN, WarpM, WarpN, Stages, TileInner, APad>;
  constexpr int tile_inner = TileInner;
  constexpr int m_frags = WarpM / 16;
  constexpr int n_frags = WarpN / 8;
  extern __shared__ __align__(16) float smem[];

  const int t = threadIdx.x;
  const int lane = t % 32;
  const int warp = t / 32;
  const int g = lane / 4; // "groupID" of the PTX fragment layouts
  const int q = lane % 4; // "threadID_in_group"
  const int warp_row0 = (warp / (TileN / WarpN)) * WarpM;
  const int warp_col0 = (warp % (TileN / WarpN)) * WarpN;
  const int row0 = blockIdx.y * TileM;
  const int col0 = blockIdx.x * TileN;

  // This block's share of the inner dimension (split-K: the blocks of one cluster share a tile of C).
  const int all_steps = (N + tile_inner - 1) / tile_inner;
  const int first_step = static_cast<int>(static_cast<long long>(all_steps) * blockIdx.z / SplitK);
  const int steps = static_cast<int>(static_cast<long long>(all_steps) * (blockIdx.z + 1) / SplitK) - first_step;

  // Each thread's chunks, fixed for the whole loop: the misalignment of a row never changes, since every
  // step moves the window by 32 floats along A's rows (a multiple of 4) and by 32 whole rows of B.
  int a_at[cfg::a_slots], a_valid[cfg::a_slots], b_at[cfg::b_slots], b_valid[cfg::b_slots], b_row[cfg::b_slots];
  const int p_first = first_step * tile_inner;
#pragma unroll
  for (int u = 0; u < cfg::a_slots; ++u) {
    const int e = t + u * cfg::threads;
    const int r = e / cfg::a_chunks, j = e % cfg::a_chunks;
    const int i = row0 + r;
    const int shift = shift_of(A, i * N + p_first);
    const int p = p_first + 4 * j - shift; // first column of the chunk
    const bool used = e < TileM * cfg::a_chunks && i < M && (j < cfg::a_chunks - 1 || shift > 0);
    a_at[u] = i * N + p;
    a_valid[u] = used ? N - p : -1 << 30; // elements of the row from the chunk's start; each step: -32
  }
#pragma unroll
  for (int u = 0; u < cfg::b_slots; ++u) {
    const int e = t + u * cfg::threads;
    const int r = e / cfg::b_chunks, j = e % cfg::b_chunks;
    const int shift = shift_of(B, (p_first + r) * K + col0);
    const int c = col0 + 4 * j - shift;
    const bool used = e < tile_inner * cfg::b_chunks && (j < cfg::b_chunks - 1 || shift > 0);
    b_at[u] = (p_first + r) * K + c;
    b_valid[u] = used ? K - c : -1 << 30;
    b_row[u] = r;
  }

  auto a_tile = [&](int s) { return smem + s * (cfg::a_floats + cfg::b_floats); };
  auto b_tile = [&](int s) { return smem + s * (cfg::a_floats + cfg::b_floats) + cfg::a_floats; };
  // Starts the copies of this block's step `step` (0-based) into stage s.
  auto load = [&](int s, int step) {
    float* as = a_tile(s);
    float* bs = b_tile(s);
#pragma unroll
    for (int u = 0; u < cfg::a_slots; ++u) {
      const int e = t + u * cfg::threads;
      if (a_valid[u] == -1 << 30) continue;
      copy_chunk(as + (e / cfg::a_chunks) * cfg::a_stride + 4 * (e % cfg::a_chunks), A, a_at[u] + step * tile_inner,
                 a_valid[u] - step * tile_inner);
    }
#pragma unroll
    for (int u = 0; u < cfg::b_slots; ++u) {
      const int e = t + u * cfg::threads;
      if (b_valid[u] == -1 << 30) continue;
      const bool row_in = p_first + step * tile_inner + b_row[u] < N;
      copy_chunk(bs + (e / cfg::b_chunks) * cfg::b_stride + 4 * (e % cfg::b_chunks), B, b_at[u] + step * tile_inner * K,
                 row_in ? b_valid[u] : 0);
    }
  };

  // Where this thread's fragment values lie in a stage, each row offset by its own misalignment.
  int a_off[m_frags][2], b_off[2];
#pragma unroll
  for (int m = 0; m < m_frags; ++m)
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int r = warp_row0 + m * 16 + g + 8 * h;
      a_off[m][h] = r * cfg::a_stride + shift_of(A, (row0 + r) * N + p_first) + q;
    }
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    const int r = q + 4 * h; // rows k + q and k + q + 4 of B's tile; k is a multiple of 8
    b_off[h] = r * cfg::b_stride + shift_of(B, (p_first + r) * K + col0) + warp_col0 + g;
  }

  float acc[m_frags][n_frags][4] = {};
  for (int s = 0; s < Stages - 1; ++s) {
    if (s < steps) load(s, s);
    commit();
  }
  for (int step = 0; step < steps; ++step) {
    // Stage `step` has landed once at most Stages - 2 later copies are still in flight.
    wait_pending<Stages - 2>();
    __syncthreads(); // also: every warp is done with the stage the next copy overwrites
    const int next = step + Stages - 1;
    if (next < steps) load(next % Stages, next);
    commit();

    const float* as = a_tile(step % Stages);
    const float* bs = b_tile(step % Stages);
    if constexpr (Presplit) {
      // Each value of the step is split once, by one thread, into its (big, small) pair; the warps then
      // load pairs instead of each splitting the values it uses (an A value was split by every warp of
      // its row of warps, a B value by every warp of its column). The pairs lie without the rows'
      // misalignment, so that fragment loads are free of bank conflicts on any shape.
      static_assert(cfg::threads % tile_inner == 0 && (cfg::threads / tile_inner) % 4 == 0, "A rows per pass");
      static_assert(cfg::threads % TileN == 0, "B rows per pass");
      float2* conv_a = reinterpret_cast<float2*>(smem + Stages * (cfg::a_floats + cfg::b_floats));
      float2* conv_b = conv_a + TileM * cfg::ca_stride;
      {
        // Rows t / 32 + 8u: a multiple of 4 apart, so all of this thread's rows share one misalignment.
        const int c = t % tile_inner, r0 = t / tile_inner;
        const int from = r0 * cfg::a_stride + shift_of(A, (row0 + r0) * N + p_first) + c;
#pragma unroll
        for (int u = 0; u < TileM * tile_inner / cfg::threads; ++u) {
          std::uint32_t big, small;
          split_tf32(as[from + u * (cfg::threads / tile_inner) * cfg::a_stride], big, small);
          conv_a[(r0 + u * (cfg::threads / tile_inner)) * cfg::ca_stride + c] =
              make_float2(__uint_as_float(big), __uint_as_float(small));
        }
      }
      {
        const int c = t % TileN, r0 = t / TileN;
#pragma unroll
        for (int u = 0; u < tile_inner * TileN / cfg::threads; ++u) {
          const int r = r0 + u * (cfg::threads / TileN);
          std::uint32_t big, small;
          split_tf32(bs[r * cfg::b_stride + shift_of(B, (p_first + r) * K + col0) + c], big, small);
          conv_b[r * cfg::cb_stride + c] = make_float2(__uint_as_float(big), __uint_as_float(small));
        }
      }
      __syncthreads();
      const float2* fa = conv_a + (warp_row0 + g) * cfg::ca_stride + q;
      const float2* fb = conv_b + q * cfg::cb_stride + warp_col0 + g;
      float part[m_frags][n_frags][4] = {};
#pragma unroll
      for (int k = 0; k < tile_inner; k += 8) {
        std::uint32_t a_big[m_frags][4], a_small[m_frags][4], b_big[n_frags][2], b_small[n_frags][2];
#pragma unroll
        for (int m = 0; m < m_frags; ++m) {
          const float2 v[4] = {fa[m * 16 * cfg::ca_stride + k], fa[(m * 16 + 8) * cfg::ca_stride + k],
                               fa[m * 16 * cfg::ca_stride + k + 4], fa[(m * 16 + 8) * cfg::ca_stride + k + 4]};
#pragma unroll
          for (int r = 0; r < 4; ++r) {
            a_big[m][r] = __float_as_uint(v[r].x);
            a_small[m][r] = __float_as_uint(v[r].y);
          }
        }
#pragma unroll
        for (int n = 0; n < n_frags; ++n) {
          const float2 v[2] = {fb[k * cfg::cb_stride + n * 8], fb[(k + 4) * cfg::cb_stride + n * 8]};
#pragma unroll
          for (int r = 0; r < 2; ++r) {
            b_big[n][r] = __float_as_uint(v[r].x);
            b_small[n][r] = __float_as_uint(v[r].y);
          }
        }
#pragma unroll
        for (int m = 0; m < m_frags; ++m)
#pragma unroll
          for (int n = 0; n < n_frags; ++n) {
            mma_tf32(part[m][n], a_small[m], b_big[n]);
            mma_tf32(part[m][n], a_big[m], b_small[n]);
            mma_tf32(part[m][n], a_big[m], b_big[n]);
          }
      }
#pragma unroll
      for (int m = 0; m < m_frags; ++m)
#pragma unroll
        for (int n = 0; n < n_frags; ++n)
#pragma unroll
          for (int e = 0; e < 4; ++e) acc[m][n][e] += part[m][n][e];
      continue;
    }
    // The tensor cores' additions round toward zero: over thousands of them the bias would exceed the
    // tolerance (measured: inner dimension 4096). So each step sums into zero and is then added with FP32's
    // rounding to nearest.
    float part[m_frags][n_frags][4] = {};
    // One slice of 8 inner values: k is its offset in the step.
    auto slice = [&](int k) {
      std::uint32_t a_big[m_frags][4], a_small[m_frags][4], b_big[n_frags][2], b_small[n_frags][2];
#pragma unroll
      for (int m = 0; m < m_frags; ++m) {
        const float v[4] = {as[a_off[m][0] + k], as[a_off[m][1] + k], as[a_off[m][0] + k + 4], as[a_off[m][1] + k + 4]};
#pragma unroll
        for (int r = 0; r < 4; ++r) {
          if (Split)
            split_tf32(v[r], a_big[m][r], a_small[m][r]);
          else
            a_big[m][r] = to_tf32(v[r]);
        }
      }
#pragma unroll
      for (int n = 0; n < n_frags; ++n) {
        const float v[2] = {bs[b_off[0] + k * cfg::b_stride + n * 8], bs[b_off[1] + k * cfg::b_stride + n * 8]};
#pragma unroll
        for (int r = 0; r < 2; ++r) {
          if (Split)
            split_tf32(v[r], b_big[n][r], b_small[n][r]);
          else
            b_big[n][r] = to_tf32(v[r]);
        }
      }
#pragma unroll
      for (int m = 0; m < m_frags; ++m)
#pragma unroll
        for (int n = 0; n < n_frags; ++n) {
          if (Split) {
            mma_tf32(part[m][n], a_small[m], b_big[n]);
            mma_tf32(part[m][n], a_big[m], b_small[n]);
          }
          mma_tf32(part[m][n], a_big[m], b_big[n]);
        }
    };
    // The inner values this step holds: tile_inner, except in the last step of a ragged inner dimension
    // (513 = 16·32 + 1: the 17th step holds 1 value). There only the slices that hold values are computed.
    const int left = N - (p_first + step * tile_inner);
    if (!Trim || left >= tile_inner) {
#pragma unroll
      for (int k = 0; k < tile_inner; k += 8) slice(k);
    } else {
#pragma unroll
      for (int k = 0; k < tile_inner; k += 8)
        if (k < left) slice(k);
    }
#pragma unroll
    for (int m = 0; m < m_frags; ++m)
#pragma unroll
      for (int n = 0; n < n_frags; ++n)
#pragma unroll
        for (int e = 0; e < 4; ++e) acc[m][n][e] += part[m][n][e];
  }
  wait_pending<0>();

  if constexpr (SplitK > 1) {
    // The other blocks of the cluster hand their sums to block 0 through distributed shared memory.
    __syncthreads();
    cg::cluster_group cluster = cg::this_cluster();
    constexpr int values = m_frags * n_frags * 4;
    if (cluster.block_rank() != 0) {
#pragma unroll
      for (int v = 0; v < values; ++v) smem[v * cfg::threads + t] = (&acc[0][0][0])[v];
    }
    cluster.sync();
    if (cluster.block_rank() == 0) {
      for (unsigned other = 1; other < cluster.num_blocks(); ++other) {
        const float* theirs = cluster.map_shared_rank(smem, other);
#pragma unroll
        for (int v = 0; v < values; ++v) (&acc[0][0][0])[v] += theirs[v * cfg::threads + t];
      }
    }
    cluster.sync(); // their shared memory must outlive the reads
    if (cluster.block_rank() != 0) return;
  }

#pragma unroll
  for (int m = 0; m < m_frags; ++m)
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      const int i = row0 + warp_row0 + m * 16 + g + h * 8;
      if (i >= M) continue;
#pragma unroll
      for (int n = 0; n < n_frags; ++n) {
        const int j = col0 + warp_col0 + n * 8 + 2 * q;
        float* out = C + static_cast<std::size_t>(i) * K + j;
        if (c_vec && j + 1 < K) {
          *reinterpret_cast<float2*>(out) = make_float2(acc[m][n][2 * h], acc[m][n][2 * h + 1]);
        } else {
          if (j < K) out[0] = acc[m][n][2 * h];
          if (j + 1 < K) out[1] = acc[m][n][2 * h + 1];
        }
      }
    }
}

template <int TileM, int TileN, int WarpM, int WarpN, int Stages, bool Split, int SplitK, int MinBlocks, int TileInner,
          int APad, bool Trim, bool Presplit>
void launch(const float* A, const float* B, float* C, int M, int N, int K) {
  using cfg = config<TileM, TileN, WarpM, WarpN, Stages, TileInner, APad>;
  auto kernel =
      matmul_tc<TileM, TileN, WarpM, WarpN, Stages, Split, SplitK, MinBlocks, TileInner, APad, Trim, Presplit>;
  const int smem_bytes = cfg::smem_bytes + (Presplit ? cfg::conv_bytes : 0);
  cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_bytes);
  const bool c_vec = K % 2 == 0 && reinterpret_cast<std::uintptr_t>(C) % 8 == 0;
  const dim3 grid((K + TileN - 1) / TileN, (M + TileM - 1) / TileM, SplitK);
  kernel<<<grid, cfg::threads, smem_bytes>>>(A, B, C, M, N, K, c_vec);
}

} // namespace

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  launch<64, 128, 32, 32, 4, true, 2, 2, 16, 4, false, false>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
