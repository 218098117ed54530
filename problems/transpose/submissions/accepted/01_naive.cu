// Ladder step 1: one thread per element.
//
// What it teaches: the shape of a 2D kernel, and why a transpose is not a copy. Thread (x, y) of the
// grid takes input element (i, j) = (y, x) and stores it at (j, i) of the output. A warp is 32
// consecutive columns of one input row, so its reads are one coalesced 128-byte transaction; its writes
// land in 32 different output rows, rows·4 bytes apart, so every store is a separate transaction and
// most of each 32-byte sector written is wasted. Correct, and about as slow as a transpose gets.
// (02_shared_tiled.cu makes the writes coalesced too.)
//
// The grid is rounded up to whole blocks, so edge blocks have threads outside the matrix: the guard
// keeps them from touching memory.
//
// Verdict: accepted.
//
// The hints it must get (`judge verify` checks them on a GPU, docs/profile.md):
// Expected hint: uncoalesced_global
#include <cuda_runtime.h>

__global__ void transpose_naive(const float* input, float* output, int rows, int cols) {
  const int j = blockIdx.x * blockDim.x + threadIdx.x; // input column = output row
  const int i = blockIdx.y * blockDim.y + threadIdx.y; // input row = output column
  if (i < rows && j < cols) output[j * rows + i] = input[i * cols + j];
}

extern "C" void solve(const float* input, float* output, int rows, int cols) {
  const dim3 block(32, 8);
  const dim3 grid((cols + block.x - 1) / block.x, (rows + block.y - 1) / block.y);
  transpose_naive<<<grid, block>>>(input, output, rows, cols);
  cudaDeviceSynchronize();
}
