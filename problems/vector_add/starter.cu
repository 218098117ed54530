// Vector addition: C[i] = A[i] + B[i] for 0 <= i < N.
//
// This starter compiles and runs but computes nothing: its kernel is empty, so C keeps the garbage it
// held before the call and the judge answers Wrong Answer. Fill in the kernel.
// That verdict needs a GPU: on a machine without one the judge compiles the file and shows NR (not
// run); grade it on your class's server with `bin/judge submit`.
#include <cuda_runtime.h>

__global__ void vector_add_kernel(const float* A, const float* B, float* C, int N) {
  // TODO: compute C[i] = A[i] + B[i] for this thread's i. The grid below is rounded up to whole blocks:
  // check i < N before touching memory.
}

// A, B and C are device pointers.
extern "C" void solve(const float* A, const float* B, float* C, int N) {
  const int threads = 256;
  const int blocks = (N + threads - 1) / threads;
  vector_add_kernel<<<blocks, threads>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
