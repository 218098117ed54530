// Ladder step 2: the same naive kernel with threadIdx.x walking along the columns.
//
// What it teaches: coalescing. A warp now owns 32 consecutive columns of one row of C: its loads of B
// (B[p * K + col]) and its stores to C are 32 consecutive floats, one 128-byte transaction, and its load
// of A is one address shared by the whole warp (a broadcast). Same arithmetic as step 1, several times
// faster. What remains slow: every element of A and B is fetched again from L2 or DRAM by every thread
// that needs it; nothing is reused on chip.
//
// Verdict: accepted.
//
// The hints it must get (`judge verify` checks them on a GPU, docs/profile.md):
// Expected hint: l1_reuse
// Expected hint: shared_memory_tiling
#include <cuda_runtime.h>

__global__ void matmul_coalesced(const float* A, const float* B, float* C, int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= K) return;
  float sum = 0.0f;
  for (int p = 0; p < N; ++p) sum += A[row * N + p] * B[p * K + col];
  C[row * K + col] = sum;
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  const dim3 block(32, 8);
  const dim3 grid((K + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  matmul_coalesced<<<grid, block>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
