// Ladder step 3: shared-memory tiling, 32×32 tiles.
//
// What it teaches: reuse through shared memory, and tails. A block computes a 32×32 tile of C. It walks
// the inner dimension 32 at a time: the block loads a 32×32 tile of A and one of B into shared memory
// (each thread one element of each, coalesced), waits, and every thread reads 32 pairs from shared
// memory. Each value fetched from global memory is now used 32 times.
//
// The tails: when M, K or N is not a multiple of 32, the last tiles hang over the edge of the matrices.
// Elements outside are loaded as zero, so the partial tile of the inner dimension adds nothing, and
// threads outside C compute but do not store. (wrong_answer/tail_tile_unfilled.cu leaves out the zeros.)
//
// Verdict: accepted.
//
// The hints it must get (`judge verify` checks them on a GPU, docs/profile.md):
// Expected hint: shared_memory_pipe
// Expected hint: register_blocking
#include <cuda_runtime.h>

constexpr int tile = 32;

__global__ void matmul_shared_tiled(const float* A, const float* B, float* C, int M, int N, int K) {
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
    a_tile[ty][tx] = (row < M && a_col < N) ? A[row * N + a_col] : 0.0f;
    b_tile[ty][tx] = (b_row < N && col < K) ? B[b_row * K + col] : 0.0f;
    // Every thread must see the whole tile before anyone reads it ...
    __syncthreads();
    for (int p = 0; p < tile; ++p) sum += a_tile[ty][p] * b_tile[p][tx];
    // ... and everyone must be done reading before the next iteration overwrites it.
    __syncthreads();
  }
  // No early return above: threads outside C still take part in loading tiles and in __syncthreads().
  if (row < M && col < K) C[row * K + col] = sum;
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  const dim3 block(tile, tile);
  const dim3 grid((K + tile - 1) / tile, (M + tile - 1) / tile);
  matmul_shared_tiled<<<grid, block>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
