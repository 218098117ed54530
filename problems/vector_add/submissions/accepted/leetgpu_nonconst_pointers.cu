// LeetGPU style: writable input pointers (`float* A`) where the problem declares `const float* A`, and
// no extern "C". Only the constness of what the pointers point to differs, which the ABI ignores: the
// judge checks that nothing else differs and calls this solve() (a C++ function) through an adapter.
//
// Verdict: accepted.
#include <cuda_runtime.h>

__global__ void add(float* A, float* B, float* C, int N) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < N; i += gridDim.x * blockDim.x) C[i] = A[i] + B[i];
}

void solve(float* A, float* B, float* C, int N) {
  int threads = 256;
  int blocks = (N + threads - 1) / threads;
  if (blocks > 4096) blocks = 4096;
  add<<<blocks, threads>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
