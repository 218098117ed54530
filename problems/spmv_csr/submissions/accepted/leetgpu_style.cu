// Accepted: the CSR sparse matrix-vector product in the style public LeetGPU solutions use.
//
// This problem has no LeetGPU counterpart (LeetGPU's SpMV passes A dense: problem spmv), but its
// solutions are written the same way: one thread per row, a grid of (M + 255) / 256 blocks of 256
// threads, `int` indices, cudaDeviceSynchronize() at the end. The thread walks its row's entries from
// row_offsets[row] to row_offsets[row + 1] and writes the sum, 0 for an empty row.
//
// Verdict: accepted. Within the problem's limits (M, N <= 10,000,000, nnz <= 100,000,000) every index
// and offset fits an int; long rows among short ones leave most threads of a warp idle, which costs
// time, not correctness.
// Robustness: an int offset would wrap for nnz above 2^31 - 1, which the problem's own limits exclude.
#include <cuda_runtime.h>

__global__ void row_sums(const int* row_offsets, const int* columns, const float* values, const float* x, float* y,
                         int M) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M) {
    float sum = 0.0f;
    for (int k = row_offsets[row]; k < row_offsets[row + 1]; ++k) sum += values[k] * x[columns[k]];
    y[row] = sum;
  }
}

extern "C" void solve(const int* row_offsets, const int* columns, const float* values, const float* x, float* y, int M,
                      int N, int nnz) {
  int threadsPerBlock = 256;
  int blocksPerGrid = (M + threadsPerBlock - 1) / threadsPerBlock;
  row_sums<<<blocksPerGrid, threadsPerBlock>>>(row_offsets, columns, values, x, y, M);
  cudaDeviceSynchronize();
}
