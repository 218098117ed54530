// Wrong answer: a register-tiled kernel whose write-back of the last, partial group of columns stores
// only the first column of the group.
//
// What it teaches: test more than one ragged shape. Each thread computes 4 rows × 4 adjacent columns of
// C. The write-back stores a full group of 4 when all 4 columns exist, and otherwise checks only the
// group's first column and stores that one, as if a tail group always held a single column. That
// happens to be true when K % 4 == 1 (K = 777, 513, 137, 13), so the mission's ragged case passes. When
// K % 4 is 2 or 3 (K = 4099, 3, 2) the other columns of the tail group are never written and keep the
// garbage the judge put in C.
//
// Verdict: wrong answer, on the cases with K % 4 == 2 or 3: sample_2x3x2, sub_tile_7x5x3,
// tall_skinny_4099x64x3, wide_3x64x4099. No access leaves the matrices: it is wrong, not a crash.
#include <cuda_runtime.h>

namespace {

constexpr int tile_rows = 64;  // rows of C per block (along M)
constexpr int tile_cols = 64;  // columns of C per block (along K)
constexpr int tile_inner = 16; // step along the inner dimension N
constexpr int per_thread = 4;  // rows and columns of C per thread
constexpr int threads_x = tile_cols / per_thread;
constexpr int threads_y = tile_rows / per_thread;
constexpr int threads = threads_x * threads_y; // 256

} // namespace

__global__ void __launch_bounds__(threads)
    matmul_writeback_first_column(const float* A, const float* B, float* C, int M, int N, int K) {
  // The padding column moves the rows of a_tile onto different banks for the compute loop.
  __shared__ float a_tile[tile_rows][tile_inner + 1];
  __shared__ float b_tile[tile_inner][tile_cols];

  const int t = threadIdx.x;
  const int row0 = blockIdx.y * tile_rows;
  const int col0 = blockIdx.x * tile_cols;
  const int first_row = (t / threads_x) * per_thread;
  const int first_col = (t % threads_x) * per_thread;

  float acc[per_thread][per_thread] = {};
  for (int p0 = 0; p0 < N; p0 += tile_inner) {
    // The loads are right: zeros outside the matrices.
    for (int e = t; e < tile_rows * tile_inner; e += threads) {
      const int i = row0 + e / tile_inner;
      const int q = p0 + e % tile_inner;
      a_tile[e / tile_inner][e % tile_inner] = (i < M && q < N) ? A[i * N + q] : 0.0f;
    }
    for (int e = t; e < tile_inner * tile_cols; e += threads) {
      const int q = p0 + e / tile_cols;
      const int j = col0 + e % tile_cols;
      b_tile[e / tile_cols][e % tile_cols] = (q < N && j < K) ? B[q * K + j] : 0.0f;
    }
    __syncthreads();
    for (int p = 0; p < tile_inner; ++p) {
      float a[per_thread];
      float b[per_thread];
      for (int m = 0; m < per_thread; ++m) a[m] = a_tile[first_row + m][p];
      for (int n = 0; n < per_thread; ++n) b[n] = b_tile[p][first_col + n];
      for (int m = 0; m < per_thread; ++m)
        for (int n = 0; n < per_thread; ++n) acc[m][n] += a[m] * b[n];
    }
    __syncthreads();
  }

  const int j = col0 + first_col;
  for (int m = 0; m < per_thread; ++m) {
    const int i = row0 + first_row + m;
    if (i >= M) break;
    if (j + per_thread - 1 < K) {
      for (int n = 0; n < per_thread; ++n) C[i * K + j + n] = acc[m][n];
    } else if (j < K) {
      // BUG: columns j + 1 .. K - 1 also exist; they are left unwritten.
      C[i * K + j] = acc[m][0];
    }
  }
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  const dim3 grid((K + tile_cols - 1) / tile_cols, (M + tile_rows - 1) / tile_rows);
  matmul_writeback_first_column<<<grid, threads>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
