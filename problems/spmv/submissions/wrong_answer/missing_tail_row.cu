// Wrong answer: two rows per warp, and an odd M's last row in no pair.
//
// What it teaches: step 2 with each warp taking a pair of rows (rows 2p and 2p + 1 share each load of
// x and keep two sums in flight), over a grid-stride loop of M / 2 pairs. When M is odd, the division
// drops the last row: no warp writes y[M − 1], which keeps the judge's poison. Tests with an even
// number of rows pass, which is most hand-made tests.
//
// Verdict: wrong answer, on every case with an odd M (sample_3x4 first).
#include <cuda_runtime.h>

#include <cstddef>

__global__ void spmv_two_rows_per_warp(const float* __restrict__ A, const float* __restrict__ x, float* __restrict__ y,
                                       int M, int N) {
  const int warp = static_cast<int>((static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32);
  const int warps = static_cast<int>(static_cast<std::size_t>(gridDim.x) * blockDim.x / 32);
  const int lane = threadIdx.x % 32;
  for (int pair = warp; pair < M / 2; pair += warps) { // BUG: M / 2 rounds an odd M's last row away
    const float* a0 = A + static_cast<std::size_t>(2 * pair) * N;
    const float* a1 = a0 + N;
    float sum0 = 0.0f, sum1 = 0.0f;
    for (int j = lane; j < N; j += 32) {
      const float xj = x[j];
      sum0 += a0[j] * xj;
      sum1 += a1[j] * xj;
    }
    for (int offset = 16; offset > 0; offset /= 2) {
      sum0 += __shfl_down_sync(0xffffffffu, sum0, offset);
      sum1 += __shfl_down_sync(0xffffffffu, sum1, offset);
    }
    if (lane == 0) {
      y[2 * pair] = sum0;
      y[2 * pair + 1] = sum1;
    }
  }
}

extern "C" void solve(const float* A, const float* x, float* y, int M, int N, int nnz) {
  // A fixed grid: the loop above hands out the pairs.
  spmv_two_rows_per_warp<<<264, 256>>>(A, x, y, M, N);
  (void)nnz;
  cudaDeviceSynchronize();
}
