// Hostile: starts a thread that keeps running after solve() returns (it could finish the work later,
// or tamper with the next call). Its object imports std::thread's start (pthread_create underneath),
// which solutions may not use: a compile error (judge/compile/object_inspection.cpp).
#include <cuda_runtime.h>
#include <chrono>
#include <thread>
__global__ void matmul_coalesced(const float* A, const float* B, float* C, int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= K) return;
  float sum = 0.0f;
  for (int p = 0; p < N; ++p) sum += A[row * N + p] * B[p * K + col];
  C[row * K + col] = sum;
}

static void launch(const float* A, const float* B, float* C, int M, int N, int K, cudaStream_t stream = 0) {
  const dim3 block(32, 8);
  const dim3 grid((K + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  matmul_coalesced<<<grid, block, 0, stream>>>(A, B, C, M, N, K);
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  launch(A, B, C, M, N, K);
  cudaDeviceSynchronize();
  std::thread([] { std::this_thread::sleep_for(std::chrono::hours(1)); }).detach();
}
