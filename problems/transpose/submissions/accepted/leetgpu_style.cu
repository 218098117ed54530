// Accepted: a matrix transpose as public LeetGPU solutions write it.
//
// What it shows: LeetGPU's starter shape: a 16 × 16 block, one thread per input element (column from x,
// row from y), `int` indices, cudaDeviceSynchronize() at the end. Reads are coalesced along a row of
// the input; the writes of a warp land `rows` floats apart, which is why the tiled steps of the ladder
// are faster, but every element goes to its place.
//
// Verdict: accepted. Within LeetGPU's limits (rows, cols <= 8192) the largest index is below 2^26.
// Robustness: beyond those limits it would fail once rows·cols passes 2^31 - 1 (for instance
// 50,000 × 50,000), where the int products wrap. transpose has no case beyond the limits, so the judge
// never runs it there.
#include <cuda_runtime.h>

__global__ void transpose_one_element(const float* input, float* output, int rows, int cols) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols) output[col * rows + row] = input[row * cols + col];
}

extern "C" void solve(const float* input, float* output, int rows, int cols) {
  dim3 threadsPerBlock(16, 16);
  dim3 blocksPerGrid((cols + threadsPerBlock.x - 1) / threadsPerBlock.x,
                     (rows + threadsPerBlock.y - 1) / threadsPerBlock.y);
  transpose_one_element<<<blocksPerGrid, threadsPerBlock>>>(input, output, rows, cols);
  cudaDeviceSynchronize();
}
