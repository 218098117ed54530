// LeetGPU style: the file keeps its own main() as a test driver, guarded by #ifndef ONLINE_JUDGE (the
// judge defines ONLINE_JUDGE in every compile of a solution). Unguarded, it is a compile error that
// names main() (compile_error/leetgpu_own_main.cu): the judge calls solve() itself.
//
// The kernel: 16×16 shared-memory tiles of A and B, zero-filled past the edges so that any M, N, K work.
//
// Verdict: accepted.
#include <cuda_runtime.h>

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

// A test driver kept in the file: the judge defines ONLINE_JUDGE, so it is compiled only when the file
// is built on its own (nvcc leetgpu_own_main_guarded.cu && ./a.out).
#ifndef ONLINE_JUDGE
#include <cmath>
#include <cstdio>
#include <vector>

int main() {
  const int M = 37, N = 29, K = 41;
  std::vector<float> a(M * N), b(N * K), c(M * K);
  for (int i = 0; i < M * N; ++i) a[i] = (i % 7) * 0.25f;
  for (int i = 0; i < N * K; ++i) b[i] = (i % 5) * 0.5f;
  float *A, *B, *C;
  cudaMalloc(&A, a.size() * sizeof(float));
  cudaMalloc(&B, b.size() * sizeof(float));
  cudaMalloc(&C, c.size() * sizeof(float));
  cudaMemcpy(A, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(B, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice);
  solve(A, B, C, M, N, K);
  cudaMemcpy(c.data(), C, c.size() * sizeof(float), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < K; ++j) {
      float expected = 0.0f;
      for (int p = 0; p < N; ++p) expected += a[i * N + p] * b[p * K + j];
      if (std::fabs(c[i * K + j] - expected) > 1e-3f * (1.0f + std::fabs(expected))) ++wrong;
    }
  std::printf("%d wrong of %d\n", wrong, M * K);
  cudaFree(A);
  cudaFree(B);
  cudaFree(C);
  return wrong == 0 ? 0 : 1;
}
#endif
