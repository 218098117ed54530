// Matrix transpose: output (cols×rows) = transpose of input (rows×cols), both row-major:
// output[j * rows + i] = input[i * cols + j].
//
// This starter compiles and runs but computes nothing: its kernel is empty, so output keeps the garbage
// it held before the call and the judge answers Wrong Answer. Fill in the kernel (and change the launch
// if your kernel needs another shape).
// That verdict needs a GPU: on a machine without one the judge compiles the file and shows NR (not
// run); grade it on your class's server with `bin/judge submit`.
#include <cuda_runtime.h>

__global__ void transpose_kernel(const float* input, float* output, int rows, int cols) {
  // TODO: copy input[i * cols + j] to output[j * rows + i] for this thread's (i, j). The grid below
  // covers the input with one thread per element (x along columns, y along rows), rounded up to whole
  // blocks: check i < rows and j < cols before touching memory.
}

// input and output are device pointers.
extern "C" void solve(const float* input, float* output, int rows, int cols) {
  const dim3 block(16, 16);
  const dim3 grid((cols + block.x - 1) / block.x, (rows + block.y - 1) / block.y);
  transpose_kernel<<<grid, block>>>(input, output, rows, cols);
  cudaDeviceSynchronize();
}
