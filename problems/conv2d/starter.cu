// 2-D convolution (valid cross-correlation): output[r][c] = sum_ij input[r+i][c+j] * kernel[i][j].
//
// This starter compiles and runs but computes nothing: output keeps its garbage and the judge answers
// Wrong Answer. The output has (input_rows - kernel_rows + 1) x (input_cols - kernel_cols + 1) elements.
// That verdict needs a GPU: on a machine without one the judge compiles the file and shows NR (not
// run); grade it on your class's server with `bin/judge submit`.
#include <cuda_runtime.h>

__global__ void conv2d_kernel(const float* input, const float* kernel, float* output, int input_rows, int input_cols,
                              int kernel_rows, int kernel_cols) {
  // TODO
}

// input, kernel and output are device pointers.
extern "C" void solve(const float* input, const float* kernel, float* output, int input_rows, int input_cols,
                      int kernel_rows, int kernel_cols) {
  const int out_rows = input_rows - kernel_rows + 1, out_cols = input_cols - kernel_cols + 1;
  const dim3 threads(16, 16);
  const dim3 blocks((out_cols + 15) / 16, (out_rows + 15) / 16);
  conv2d_kernel<<<blocks, threads>>>(input, kernel, output, input_rows, input_cols, kernel_rows, kernel_cols);
  cudaDeviceSynchronize();
}
