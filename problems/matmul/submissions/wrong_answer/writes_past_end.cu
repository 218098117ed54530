// Broken: an off-by-one writes one element past the end of C. The guard region behind C catches it, and
// compute-sanitizer (rerun with exact buffers) names the line: it lands just past the end of C.
// Expected sanitizer: memcheck invalid write at line 21
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

__global__ void one_past(float* c, long long n) { c[n] = 1.0f; }

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  launch(A, B, C, M, N, K);
  one_past<<<1, 1>>>(C, static_cast<long long>(M) * K);
  cudaDeviceSynchronize();
}
