// Broken: `i <= N` instead of `i < N` writes one element past the end of C; the guard region catches it.
#include <cuda_runtime.h>

__global__ void add(const float* A, const float* B, float* C, int N) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= N) C[i] = (i < N ? A[i] + B[i] : 0.0f);
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  add<<<N / 256 + 1, 256>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
