// Ladder step 5: 2D register tiling with vectorised loads where the data is aligned.
//
// What it teaches: reuse in both directions, and vector memory access that stays correct on any shape.
// A thread now computes a 4×4 block of C in 16 registers. For every step along the inner dimension it
// loads 4 values of A and 4 of B from shared memory (two 16-byte loads) and does 16 multiply-adds with
// them, 2 per float loaded where step 4 did about 1. The A tile is stored transposed (inner index first)
// so that a thread's 4 values of A are contiguous, like its 4 values of B. Why not 8×8 per thread, which
// reuses more? At 1024×512×1024 it leaves only 16384 threads for the whole GPU, too few to hide the
// latency of memory: on the H200 a 64×64 tile with 8×8 per thread took about twice as long as this one.
// Larger matrices favour larger per-thread tiles.
//
// Vector loads and stores (float4) need 16-byte aligned addresses. The buffers are aligned, but row i of
// A starts at A + i·N, which is 16-byte aligned for every row only when N is a multiple of 4 (and the same
// for B and C with K). So solve() decides per matrix whether float4 is allowed, and the kernel also falls
// back to guarded scalar accesses for the groups of 4 that cross the edge of a matrix: the ragged shapes
// (1001×513×777, primes, a dimension of 1) take the scalar path, the aligned ones the fast path.
//
// Verdict: accepted.
//
// The hints it must get (`judge verify` checks them on a GPU, docs/profile.md):
// Expected hint: latency_bound
#include <cuda_runtime.h>

#include <cstdint>

namespace {

constexpr int tile_rows = 64;  // rows of C per block (along M)
constexpr int tile_cols = 64;  // columns of C per block (along K)
constexpr int tile_inner = 16; // step along the inner dimension N
constexpr int thread_rows = 4; // rows of C per thread
constexpr int thread_cols = 4; // columns of C per thread
constexpr int threads_x = tile_cols / thread_cols;
constexpr int threads = (tile_rows / thread_rows) * threads_x; // 256

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

// Fully unrolled at every use with a constant `out`, so the array stays in registers.
__device__ void unpack(float4 x, float* out) {
  out[0] = x.x;
  out[1] = x.y;
  out[2] = x.z;
  out[3] = x.w;
}

} // namespace

__global__ void __launch_bounds__(threads)
    matmul_register_2d(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M, int N,
                       int K, bool a_vec, bool b_vec, bool c_vec) {
  __shared__ __align__(16) float a_tile[tile_inner][tile_rows]; // transposed: a_tile[p][r] = A(row0 + r, p0 + p)
  __shared__ __align__(16) float b_tile[tile_inner][tile_cols];

  const int t = threadIdx.x;
  const int row0 = blockIdx.y * tile_rows;
  const int col0 = blockIdx.x * tile_cols;
  const int first_row = (t / threads_x) * thread_rows;
  const int first_col = (t % threads_x) * thread_cols;

  float acc[thread_rows][thread_cols] = {};
  for (int p0 = 0; p0 < N; p0 += tile_inner) {
    // A tile: tile_rows rows of tile_inner values, loaded as groups of 4 along a row.
    for (int g = t; g < tile_rows * tile_inner / 4; g += threads) {
      const int r = g / (tile_inner / 4);
      const int p = (g % (tile_inner / 4)) * 4;
      const int i = row0 + r;
      const int q = p0 + p;
      float v[4];
      if (a_vec && i < M && q + 3 < N) {
        unpack(*reinterpret_cast<const float4*>(A + i * N + q), v);
      } else {
        for (int e = 0; e < 4; ++e) v[e] = (i < M && q + e < N) ? A[i * N + q + e] : 0.0f;
      }
      for (int e = 0; e < 4; ++e) a_tile[p + e][r] = v[e];
    }
    // B tile: tile_inner rows of tile_cols values, groups of 4 along a row.
    for (int g = t; g < tile_inner * tile_cols / 4; g += threads) {
      const int p = g / (tile_cols / 4);
      const int c = (g % (tile_cols / 4)) * 4;
      const int q = p0 + p;
      const int j = col0 + c;
      float4 x;
      if (b_vec && q < N && j + 3 < K) {
        x = *reinterpret_cast<const float4*>(B + q * K + j);
      } else {
        x.x = (q < N && j + 0 < K) ? B[q * K + j + 0] : 0.0f;
        x.y = (q < N && j + 1 < K) ? B[q * K + j + 1] : 0.0f;
        x.z = (q < N && j + 2 < K) ? B[q * K + j + 2] : 0.0f;
        x.w = (q < N && j + 3 < K) ? B[q * K + j + 3] : 0.0f;
      }
      *reinterpret_cast<float4*>(&b_tile[p][c]) = x;
    }
    __syncthreads();

    for (int p = 0; p < tile_inner; ++p) {
      float a[thread_rows];
      float b[thread_cols];
      for (int m = 0; m < thread_rows; m += 4)
        unpack(*reinterpret_cast<const float4*>(&a_tile[p][first_row + m]), a + m);
      for (int n = 0; n < thread_cols; n += 4)
        unpack(*reinterpret_cast<const float4*>(&b_tile[p][first_col + n]), b + n);
      for (int m = 0; m < thread_rows; ++m)
        for (int n = 0; n < thread_cols; ++n) acc[m][n] += a[m] * b[n];
    }
    __syncthreads();
  }

  for (int m = 0; m < thread_rows; ++m) {
    const int i = row0 + first_row + m;
    if (i >= M) break;
    for (int n = 0; n < thread_cols; n += 4) {
      const int j = col0 + first_col + n;
      if (c_vec && j + 3 < K) {
        *reinterpret_cast<float4*>(C + i * K + j) = make_float4(acc[m][n], acc[m][n + 1], acc[m][n + 2], acc[m][n + 3]);
      } else {
        for (int e = 0; e < 4; ++e)
          if (j + e < K) C[i * K + j + e] = acc[m][n + e];
      }
    }
  }
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  // Row r of a matrix with w columns starts at r·w floats: 16-byte aligned for every r only if w % 4 == 0.
  const bool a_vec = N % 4 == 0 && aligned16(A);
  const bool b_vec = K % 4 == 0 && aligned16(B);
  const bool c_vec = K % 4 == 0 && aligned16(C);
  const dim3 grid((K + tile_cols - 1) / tile_cols, (M + tile_rows - 1) / tile_rows);
  matmul_register_2d<<<grid, threads>>>(A, B, C, M, N, K, a_vec, b_vec, c_vec);
  cudaDeviceSynchronize();
}
