// Hostile: computes C = A + B, then exits with status 0 from inside solve(). The verdict needs a checked
// report from the runner, which never comes: run-time error, never accepted.
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void add(const float* A, const float* B, float* C, int N) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  add<<<(N + 255) / 256, 256>>>(A, B, C, N);
  cudaDeviceSynchronize();
  std::exit(0);
}
