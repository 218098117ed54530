// Wrong answer: x indexed by the nonzero's position in its row instead of by its column.
//
// What it teaches: in CSR the column of each nonzero is data (columns[k]); the position within the row
// says nothing about it. Multiplying by x[k − row_offsets[i]] treats every row as if it were packed into
// its first columns, which is right only for a matrix stored that way (a dense one, say).
//
// Verdict: wrong answer, on every case with a row whose columns are not 0, 1, 2, ...
#include <cuda_runtime.h>

#include <cstddef>

__global__ void spmv_packed_columns(const int* __restrict__ row_offsets, const float* __restrict__ values,
                                    const float* __restrict__ x, float* __restrict__ y, int M, int N) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= static_cast<std::size_t>(M)) return;
  float sum = 0.0f;
  for (int k = row_offsets[i]; k < row_offsets[i + 1]; ++k) {
    const int column = (k - row_offsets[i]) % N; // BUG: should be columns[k]
    sum += values[k] * x[column];
  }
  y[i] = sum;
}

extern "C" void solve(const int* row_offsets, const int* columns, const float* values, const float* x, float* y, int M,
                      int N, int nnz) {
  spmv_packed_columns<<<(M + 255) / 256, 256>>>(row_offsets, values, x, y, M, N);
  (void)columns;
  (void)nnz;
  cudaDeviceSynchronize();
}
