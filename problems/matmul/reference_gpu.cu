// GPU reference of matmul, run inside the runner to check the outputs of timed calls: C = A·B with
// double accumulation, rounded to float once at the end. Trusted code: it sees every shape the judge
// can send, so every load and store is guarded. Its kernel's name starts with judge_reference_ (and is
// not mangled) so that it can be told apart from the solution's kernels.
#include <cuda_runtime.h>

#include <cstddef>

namespace {

// A 64×64 tile of C per block of 16×16 threads, each thread a 4×4 register tile.
constexpr int tile_rows = 64;  // along M
constexpr int tile_cols = 64;  // along K
constexpr int tile_inner = 16; // along N
constexpr int threads_x = 16;
constexpr int threads_y = 16;
constexpr int per_thread = 4; // rows and columns of C per thread: tile_rows / threads_y, tile_cols / threads_x

} // namespace

extern "C" __global__ void __launch_bounds__(threads_x* threads_y)
    judge_reference_matmul(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int M,
                           int N, int K) {
  // Stored as double: converting once on the way in is cheaper than converting on every use, and a
  // float widened to double makes every product exact. a_tile is transposed (inner index first) so that
  // the compute loop reads it like b_tile; its padding column spreads the transposing stores over banks.
  __shared__ double a_tile[tile_inner][tile_rows + 1];
  __shared__ double b_tile[tile_inner][tile_cols];

  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int thread = ty * threads_x + tx;
  const int row0 = blockIdx.y * tile_rows;
  const int col0 = blockIdx.x * tile_cols;

  double acc[per_thread][per_thread] = {};
  for (int p0 = 0; p0 < N; p0 += tile_inner) {
    // Consecutive threads take consecutive inner indices of A and consecutive columns of B (coalesced);
    // whatever lies outside the matrices is zero, so the tail tile adds nothing.
    for (int e = thread; e < tile_rows * tile_inner; e += threads_x * threads_y) {
      const int r = e / tile_inner;
      const int p = e % tile_inner;
      const int i = row0 + r;
      const int q = p0 + p;
      a_tile[p][r] = (i < M && q < N) ? static_cast<double>(A[static_cast<std::size_t>(i) * N + q]) : 0.0;
    }
    for (int e = thread; e < tile_inner * tile_cols; e += threads_x * threads_y) {
      const int p = e / tile_cols;
      const int c = e % tile_cols;
      const int q = p0 + p;
      const int j = col0 + c;
      b_tile[p][c] = (q < N && j < K) ? static_cast<double>(B[static_cast<std::size_t>(q) * K + j]) : 0.0;
    }
    __syncthreads();
    for (int p = 0; p < tile_inner; ++p) {
      // Thread (tx, ty) owns rows ty + 16·r and columns tx + 16·c: a warp reads 16 consecutive columns of
      // b_tile and two rows of a_tile (a broadcast), without bank conflicts.
      double a[per_thread];
      double b[per_thread];
      for (int r = 0; r < per_thread; ++r) a[r] = a_tile[p][ty + r * threads_y];
      for (int c = 0; c < per_thread; ++c) b[c] = b_tile[p][tx + c * threads_x];
      for (int r = 0; r < per_thread; ++r)
        for (int c = 0; c < per_thread; ++c) acc[r][c] = fma(a[r], b[c], acc[r][c]);
    }
    __syncthreads();
  }

  for (int r = 0; r < per_thread; ++r) {
    const int i = row0 + ty + r * threads_y;
    if (i >= M) break;
    for (int c = 0; c < per_thread; ++c) {
      const int j = col0 + tx + c * threads_x;
      if (j < K) C[static_cast<std::size_t>(i) * K + j] = static_cast<float>(acc[r][c]);
    }
  }
}

/// The harness's entry point: buffers in signature order (A, B, C), sizes in signature order (M, N, K).
/// Launches on the legacy default stream and returns; the harness synchronises.
extern "C" void judge_reference_solve(void* const* buffers, const int* sizes, const float* /*scalars*/) {
  const auto* a = static_cast<const float*>(buffers[0]);
  const auto* b = static_cast<const float*>(buffers[1]);
  auto* c = static_cast<float*>(buffers[2]);
  const int m = sizes[0];
  const int n = sizes[1];
  const int k = sizes[2];
  const dim3 block(threads_x, threads_y);
  const dim3 grid((k + tile_cols - 1) / tile_cols, (m + tile_rows - 1) / tile_rows);
  judge_reference_matmul<<<grid, block, 0, cudaStreamLegacy>>>(a, b, c, m, n, k);
}
