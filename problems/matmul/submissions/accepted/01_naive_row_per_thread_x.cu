// Ladder step 1: the naive kernel, one thread per element of C, with threadIdx.x walking down the rows.
//
// What it teaches: correctness first, and why the mapping of threads to data matters. The 32 threads of
// a warp have consecutive threadIdx.x, so here they own 32 consecutive rows of one column of C: each load
// of A touches 32 different rows (N floats apart, 32 memory transactions instead of one), and each store
// to C is scattered the same way. Only the loads of B are shared by the whole warp.
//
// Verdict: accepted. Every element is computed in FP32 and every access is guarded; it is just slow.
//
// The hints it must get (`judge verify` checks them on a GPU, docs/profile.md):
// Expected hint: uncoalesced_global
#include <cuda_runtime.h>

__global__ void matmul_row_per_thread_x(const float* A, const float* B, float* C, int M, int N, int K) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  const int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= K) return;
  float sum = 0.0f;
  for (int p = 0; p < N; ++p) sum += A[row * N + p] * B[p * K + col];
  C[row * K + col] = sum;
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  const dim3 block(32, 8);
  const dim3 grid((M + block.x - 1) / block.x, (K + block.y - 1) / block.y);
  matmul_row_per_thread_x<<<grid, block>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
