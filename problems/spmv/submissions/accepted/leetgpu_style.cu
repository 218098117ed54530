// Accepted: LeetGPU's sparse matrix-vector product (dense input) as public LeetGPU solutions write it.
//
// What it shows: one thread per row of A, a grid of (M + 255) / 256 blocks of 256 threads, `int`
// indices, the row's N products summed in a loop that skips the zeros (the test costs the same read of
// A either way), cudaDeviceSynchronize() at the end. nnz is not needed. Neighbouring threads read rows N
// floats apart, so the loads are not coalesced; ladder step 2 fixes that.
//
// Verdict: accepted. Within LeetGPU's limits (M, N <= 10,000) the largest index, row * N + j, is below
// 10^8.
// Robustness: an int index would wrap once M · N passed 2^31 - 1 (for instance 50,000 × 50,000); spmv
// has no case beyond the limits, so the judge never runs it there.
#include <cuda_runtime.h>

__global__ void row_products(const float* A, const float* x, float* y, int M, int N) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M) {
    float sum = 0.0f;
    for (int j = 0; j < N; ++j) {
      float a = A[row * N + j];
      if (a != 0.0f) sum += a * x[j];
    }
    y[row] = sum;
  }
}

extern "C" void solve(const float* A, const float* x, float* y, int M, int N, int nnz) {
  int threadsPerBlock = 256;
  int blocksPerGrid = (M + threadsPerBlock - 1) / threadsPerBlock;
  row_products<<<blocksPerGrid, threadsPerBlock>>>(A, x, y, M, N);
  cudaDeviceSynchronize();
}
