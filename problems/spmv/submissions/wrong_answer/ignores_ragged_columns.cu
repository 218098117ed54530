// Wrong answer: step 2 unrolled by four, without the remainder.
//
// What it teaches: each lane takes four consecutive columns per step (j, j + 1, j + 2, j + 3 with
// j = 4·lane, 4·lane + 128, ...), and the loop runs while all four exist. When N is not a multiple of 4,
// the last N mod 4 columns of every row are never read: their products are missing from y. LeetGPU's
// shapes (N = 10,000) and the samples (N = 4 and 20) are multiples of 4 and pass; a ragged N needs the
// remainder loop after the unrolled one.
//
// Verdict: wrong answer, on every case with N mod 4 != 0 (one_element first, whose one column is all
// of the row).
#include <cuda_runtime.h>

#include <cstddef>

__global__ void spmv_warp_per_row_by_four(const float* __restrict__ A, const float* __restrict__ x,
                                          float* __restrict__ y, int M, int N) {
  const std::size_t row = (static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (row >= static_cast<std::size_t>(M)) return; // whole warps leave together
  const float* a = A + row * N;
  float sum = 0.0f;
  for (int j = 4 * lane; j + 3 < N; j += 4 * 32) // BUG: no loop for the last N % 4 columns
    sum += a[j] * x[j] + a[j + 1] * x[j + 1] + a[j + 2] * x[j + 2] + a[j + 3] * x[j + 3];
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  if (lane == 0) y[row] = sum;
}

extern "C" void solve(const float* A, const float* x, float* y, int M, int N, int nnz) {
  const int threads = 256; // 8 rows per block
  const std::size_t blocks = (static_cast<std::size_t>(M) * 32 + threads - 1) / threads;
  spmv_warp_per_row_by_four<<<static_cast<unsigned>(blocks), threads>>>(A, x, y, M, N);
  (void)nnz;
  cudaDeviceSynchronize();
}
