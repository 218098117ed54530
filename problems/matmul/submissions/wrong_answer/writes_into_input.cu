// Hostile: computes C correctly but also overwrites A (e.g. to make a reference computed afterwards
// agree with a wrong C). Inputs are read-only: wrong answer, with a message saying so.
#include <cuda_runtime.h>

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

__global__ void clobber(float* a) { a[threadIdx.x] = 0.5f; }

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  launch(A, B, C, M, N, K);
  clobber<<<1, 1>>>(const_cast<float*>(A));
  cudaDeviceSynchronize();
}
