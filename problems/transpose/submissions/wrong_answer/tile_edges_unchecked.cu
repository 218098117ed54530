// Wrong answer: the shared-memory tiled kernel of accepted/02_shared_tiled.cu that only handles full
// tiles.
//
// What it teaches: the ragged edge is part of the matrix. To keep bounds checks out of the loads and
// stores, a block whose 32×32 tile does not fit entirely inside the input returns at once (the edge was
// "to be handled later"). Nothing is read or written out of bounds, so nothing crashes; the elements of
// the partial tiles are simply never written and keep the garbage the judge put in the output. Shapes
// that are multiples of 32 pass, which is how this bug survives testing on tidy sizes.
//
// Verdict: wrong answer, on both samples and every hidden case except square_1024 and square_4096:
// the samples, one_1x1, row_1x1000 and column_1000x1 have no full tile at all (nothing is written);
// ragged_1001x777, primes_127x131 and ragged_8191x4097 lose their last row and column of tiles.
#include <cuda_runtime.h>

constexpr int tile = 32;

__global__ void transpose_full_tiles_only(const float* input, float* output, int rows, int cols) {
  __shared__ float buffer[tile][tile + 1];

  const int row0 = blockIdx.y * tile;
  const int col0 = blockIdx.x * tile;
  // BUG: partial tiles are skipped instead of guarded. (The return is taken by the whole block, so no
  // thread is left waiting at __syncthreads().)
  if (row0 + tile > rows || col0 + tile > cols) return;

  buffer[threadIdx.y][threadIdx.x] = input[(row0 + threadIdx.y) * cols + col0 + threadIdx.x];
  __syncthreads();
  output[(col0 + threadIdx.y) * rows + row0 + threadIdx.x] = buffer[threadIdx.x][threadIdx.y];
}

extern "C" void solve(const float* input, float* output, int rows, int cols) {
  const dim3 block(tile, tile);
  // Rounded up like the accepted kernel, so the grid is never empty (an empty grid is a launch error,
  // not a wrong answer); the edge blocks return without doing anything.
  const dim3 grid((cols + tile - 1) / tile, (rows + tile - 1) / tile);
  transpose_full_tiles_only<<<grid, block>>>(input, output, rows, cols);
  cudaDeviceSynchronize();
}
