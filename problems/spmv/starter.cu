// Sparse matrix-vector product with the matrix passed dense: y[i] = sum over j of A[i*N + j] * x[j],
// A row-major with M rows and N columns, nnz of its elements not 0.
//
// This starter compiles and runs but computes nothing: y keeps its garbage and the judge answers Wrong
// Answer. N need not be a multiple of anything.
// That verdict needs a GPU: on a machine without one the judge compiles the file and shows NR (not
// run); grade it on your class's server with `bin/judge submit`.
#include <cuda_runtime.h>

__global__ void spmv_kernel(const float* A, const float* x, float* y, int M, int N) {
  // TODO
}

// A, x, y are device pointers
extern "C" void solve(const float* A, const float* x, float* y, int M, int N, int nnz) {
  const int threads = 256;
  const int blocks = (M + threads - 1) / threads;
  spmv_kernel<<<blocks, threads>>>(A, x, y, M, N);
  cudaDeviceSynchronize();
}
