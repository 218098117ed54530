// Ladder step 1: one thread per row.
//
// What it teaches: the product itself. Thread i walks row i of the dense matrix, A[i·N] to
// A[i·N + N − 1], multiplies each element by x[j] and writes the sum to y[i]. The grid is rounded up to
// whole blocks, so the `row < M` guard keeps the last block's extra threads out of memory; the row's
// offset is computed in size_t, the habit that keeps row·N from overflowing an int on larger matrices.
//
// Why it is slow: at each step of the loop a warp's 32 threads read 32 addresses N floats apart, one
// 128-byte line each, of which each thread uses 4 bytes before moving on (uncoalesced); and there are
// only M threads: LeetGPU's 1,000 rows make 4 blocks, 4 of the H200's 132 SMs, far too few loads in
// flight to keep its memory busy.
//
// Verdict: accepted.
#include <cuda_runtime.h>

#include <cstddef>

__global__ void spmv_row_per_thread(const float* __restrict__ A, const float* __restrict__ x, float* __restrict__ y,
                                    int M, int N) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M) return;
  const float* a = A + static_cast<std::size_t>(row) * N;
  float sum = 0.0f;
  for (int j = 0; j < N; ++j) sum += a[j] * x[j];
  y[row] = sum;
}

extern "C" void solve(const float* A, const float* x, float* y, int M, int N, int nnz) {
  const int threads = 256;
  spmv_row_per_thread<<<(M + threads - 1) / threads, threads>>>(A, x, y, M, N);
  (void)nnz;
  cudaDeviceSynchronize();
}
