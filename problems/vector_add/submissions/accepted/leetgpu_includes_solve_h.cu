// LeetGPU style: the file includes "solve.h", as LeetGPU's older starter did. The judge provides a
// solve.h for each problem (its declaration of solve()), so the file compiles unchanged.
//
// Verdict: accepted.
#include "solve.h"

__global__ void add(const float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  int threads = 256;
  add<<<(N + threads - 1) / threads, threads>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
