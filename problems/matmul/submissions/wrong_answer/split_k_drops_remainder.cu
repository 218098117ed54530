// Wrong answer: split-K for long inner dimensions drops the last N % 8 terms of every dot product.
//
// What it teaches: when the inner dimension is long and C is small, one thread per element of C leaves
// the GPU idle, so the inner dimension is split: 8 slices of it are summed by 8 layers of the grid and
// added into C (zeroed first) with atomicAdd. Each slice has N / 8 terms, rounded down, and slice s
// covers [s · (N / 8), (s + 1) · (N / 8)) (BUG): when N is not a multiple of 8 the last N % 8 terms
// belong to no slice. The split is taken only for N >= 2048 with M · K <= 2^20; everything else goes
// through one thread per element of C, which is right. Every case before the long ones had N <= 513,
// so it passed them all; inner_64x8192x64 has N % 8 = 0 and passes too. inner_63x8191x65 (inputs in
// [-0.5, 0.5)) is short of 7 products in every element, typically 0.2 in all, where the tolerance is
// 1e-4 + 1e-4 · |C|, below 1e-3 for almost every element.
//
// Verdict: wrong answer, on inner_63x8191x65.
#include <cuda_runtime.h>

namespace {

constexpr int splits = 8;

__global__ void matmul_one_output(const float* A, const float* B, float* C, int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= K) return;
  float sum = 0.0f;
  for (int p = 0; p < N; ++p) sum += A[row * N + p] * B[p * K + col];
  C[row * K + col] = sum;
}

__global__ void matmul_slice(const float* A, const float* B, float* C, int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= K) return;
  const int per_slice = N / splits; // BUG: the last N % splits terms fall outside every slice
  const int begin = blockIdx.z * per_slice, end = begin + per_slice;
  float sum = 0.0f;
  for (int p = begin; p < end; ++p) sum += A[row * N + p] * B[p * K + col];
  atomicAdd(&C[row * K + col], sum);
}

} // namespace

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  const dim3 threads(16, 16);
  const dim3 blocks((K + 15) / 16, (M + 15) / 16);
  if (N >= 2048 && static_cast<long long>(M) * K <= (1 << 20)) {
    cudaMemset(C, 0, static_cast<size_t>(M) * K * sizeof(float));
    matmul_slice<<<dim3(blocks.x, blocks.y, splits), threads>>>(A, B, C, M, N, K);
  } else {
    matmul_one_output<<<blocks, threads>>>(A, B, C, M, N, K);
  }
  cudaDeviceSynchronize();
}
