// Noisy: prints about 4 MB per call to stdout and stderr (debug output left in). The judge keeps the start
// of it, counts the rest and drops it, so neither the judge nor the solution stalls.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstring>
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
  static char line[4096];
  std::memset(line, 'x', sizeof line - 2);
  line[sizeof line - 2] = '\n';
  for (int i = 0; i < 512; ++i) {
    std::fputs(line, stdout);
    std::fputs(line, stderr);
  }
  launch(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
