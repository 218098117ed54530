// Hostile: computes only the first 99% of the rows of C (a fast kernel on a judge that samples a few
// elements). Every element is checked, so the last rows are found unwritten.
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

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  const int rows = M > 1 ? M - (M + 99) / 100 : M;
  launch(A, B, C, rows, N, K);
  cudaDeviceSynchronize();
}
