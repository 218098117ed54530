// Broken: solve() waits on the host forever. The judge stops it at the problem's time limit and kills the
// runner's whole process group.
#include <chrono>
#include <cuda_runtime.h>
#include <thread>

__global__ void add(const float* A, const float* B, float* C, int N) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  add<<<(N + 255) / 256, 256>>>(A, B, C, N);
  cudaDeviceSynchronize();
  for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
}
