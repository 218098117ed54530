// Sparse matrix-vector product: y[i] = sum over k in [row_offsets[i], row_offsets[i+1]) of
// values[k] * x[columns[k]].
//
// This starter compiles and runs but computes nothing: y keeps its garbage and the judge answers Wrong
// Answer. Rows have very different lengths, and some are empty.
// That verdict needs a GPU: on a machine without one the judge compiles the file and shows NR (not
// run); grade it on your class's server with `bin/judge submit`.
#include <cuda_runtime.h>

__global__ void spmv_kernel(const int* row_offsets, const int* columns, const float* values, const float* x, float* y,
                            int M) {
  // TODO
}

// All pointers are device pointers.
extern "C" void solve(const int* row_offsets, const int* columns, const float* values, const float* x, float* y, int M,
                      int N, int nnz) {
  const int threads = 256;
  const int blocks = (M + threads - 1) / threads;
  spmv_kernel<<<blocks, threads>>>(row_offsets, columns, values, x, y, M);
  cudaDeviceSynchronize();
}
