// author: example
// An example learner solution, so that `bin/judge vector_add` has something to grade on a fresh clone.
#include <cuda_runtime.h>

__global__ void vector_add_simple(const float* A, const float* B, float* C, int N) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  const int threads = 256;
  const int blocks = (N + threads - 1) / threads;
  vector_add_simple<<<blocks, threads>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
