// LeetGPU style: the file includes "solve.h", as LeetGPU's older starter did. The judge provides a
// solve.h for each problem (its declaration of solve()), so the file compiles unchanged.
//
// The kernel: 16×16 shared-memory tiles of A and B, zero-filled past the edges so that any M, N, K work.
//
// Verdict: accepted.
#include "solve.h"

#define TILE 16

__global__ void tiled_matmul(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < N; t += TILE) {
    As[threadIdx.y][threadIdx.x] = (row < M && t + threadIdx.x < N) ? A[row * N + t + threadIdx.x] : 0.0f;
    Bs[threadIdx.y][threadIdx.x] = (t + threadIdx.y < N && col < K) ? B[(t + threadIdx.y) * K + col] : 0.0f;
    __syncthreads();
    for (int i = 0; i < TILE; ++i) acc += As[threadIdx.y][i] * Bs[i][threadIdx.x];
    __syncthreads();
  }
  if (row < M && col < K) C[row * K + col] = acc;
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  dim3 threads(TILE, TILE);
  dim3 blocks((K + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  tiled_matmul<<<blocks, threads>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
