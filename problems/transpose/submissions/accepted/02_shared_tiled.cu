// Ladder step 2: a 32×32 tile through shared memory, coalesced on both sides.
//
// What it teaches: shared memory as a staging area that changes the access pattern. A block reads a
// 32×32 tile of the input row by row (coalesced: a warp reads 32 consecutive floats of one row) into
// shared memory, waits, then writes the transposed tile row by row of the output (coalesced again: a
// warp writes 32 consecutive floats of one output row). The transposition itself happens in shared
// memory, where strided access is cheap.
//
// Bank conflicts: the write phase reads a column of the tile. With 32 floats per row, the 32 elements of
// a column all sit in the same bank and a warp's read is serialised 32 ways. One padding column (33
// floats per row) shifts each row by one bank, so a column spans all 32 banks.
//
// Ragged edges: when rows or cols is not a multiple of 32 the last tiles hang over the edge. Loads and
// stores are both guarded, each against the bounds of the matrix it touches (the input is rows×cols,
// the output cols×rows). (wrong_answer/tile_edges_unchecked.cu skips the partial tiles instead.)
//
// Verdict: accepted.
#include <cuda_runtime.h>

constexpr int tile = 32;

__global__ void transpose_shared_tiled(const float* input, float* output, int rows, int cols) {
  __shared__ float buffer[tile][tile + 1];

  const int row0 = blockIdx.y * tile; // first input row of this tile
  const int col0 = blockIdx.x * tile; // first input column of this tile

  // Load: thread (tx, ty) reads input (row0 + ty, col0 + tx).
  const int in_row = row0 + threadIdx.y;
  const int in_col = col0 + threadIdx.x;
  if (in_row < rows && in_col < cols) buffer[threadIdx.y][threadIdx.x] = input[in_row * cols + in_col];

  // Every thread must see the whole tile before anyone reads a column of it.
  __syncthreads();

  // Store: thread (tx, ty) writes output (col0 + ty, row0 + tx), which is input (row0 + tx, col0 + ty).
  const int out_row = col0 + threadIdx.y;
  const int out_col = row0 + threadIdx.x;
  if (out_row < cols && out_col < rows) output[out_row * rows + out_col] = buffer[threadIdx.x][threadIdx.y];
}

extern "C" void solve(const float* input, float* output, int rows, int cols) {
  const dim3 block(tile, tile);
  const dim3 grid((cols + tile - 1) / tile, (rows + tile - 1) / tile);
  transpose_shared_tiled<<<grid, block>>>(input, output, rows, cols);
  cudaDeviceSynchronize();
}
