// Wrong answer: the shared-memory tiled kernel of accepted/03_shared_tiled.cu without the zeros in the
// last, partial tile of the inner dimension.
//
// What it teaches: a guard that prevents a crash is not enough; what the skipped elements hold matters.
// The loads are guarded (nothing outside A or B is read), but when the guard fails the shared-memory
// slot is simply not written, so it keeps the value from the previous tile. When N is not a multiple of
// 32, the last tile's compute loop then adds those stale products a second time.
//
// Verdict: wrong answer. Right whenever N is a multiple of 32 (aligned_1024x512x1024 passes, ragged M and
// K included); wrong on every case with N > 32 and N % 32 != 0: ragged_1001x513x777 (the last tile holds
// 1 fresh column and 31 stale ones), primes_127x131x137, big_values_96x100x80, normal_200x300x100. With
// N < 32 there is no previous tile: the slots hold whatever an earlier block left in shared memory, and
// the result is right or wrong by accident.
#include <cuda_runtime.h>

constexpr int tile = 32;

__global__ void matmul_tail_unfilled(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ float a_tile[tile][tile];
  __shared__ float b_tile[tile][tile];

  const int tx = threadIdx.x;
  const int ty = threadIdx.y;
  const int row = blockIdx.y * tile + ty;
  const int col = blockIdx.x * tile + tx;

  float sum = 0.0f;
  for (int p0 = 0; p0 < N; p0 += tile) {
    const int a_col = p0 + tx;
    const int b_row = p0 + ty;
    // BUG: no `else ... = 0.0f`. Out-of-range slots keep the previous tile's values.
    if (row < M && a_col < N) a_tile[ty][tx] = A[row * N + a_col];
    if (b_row < N && col < K) b_tile[ty][tx] = B[b_row * K + col];
    __syncthreads();
    for (int p = 0; p < tile; ++p) sum += a_tile[ty][p] * b_tile[p][tx];
    __syncthreads();
  }
  if (row < M && col < K) C[row * K + col] = sum;
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  const dim3 block(tile, tile);
  const dim3 grid((K + tile - 1) / tile, (M + tile - 1) / tile);
  matmul_tail_unfilled<<<grid, block>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
