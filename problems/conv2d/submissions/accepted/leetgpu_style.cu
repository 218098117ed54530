// Accepted: a 2-D convolution as public LeetGPU solutions write it.
//
// What it shows: LeetGPU's starter shape: a 16 × 16 block, one thread per output (column from x, row
// from y), `int` indices, the kernel_rows × kernel_cols products summed in a double loop straight from
// global memory, no flip (a cross-correlation, as the problem asks). cudaDeviceSynchronize() at the end.
// Neighbouring threads read neighbouring inputs and the same weight, so L1 serves most loads.
//
// Verdict: accepted. Within LeetGPU's limits (images up to 3072 × 3072, kernels up to 31 × 31) the
// largest index is below 3072 · 3072 < 2^24, and every kernel shape, tall, wide, even or as large as
// the image, goes through the same loops.
// Robustness: it passes the robustness cases beyond the limits too (images of 4096 × 4096 and 4099
// rows); an int index would wrap once input_rows · input_cols passed 2^31 - 1, which no case reaches.
#include <cuda_runtime.h>

__global__ void convolve_one_output(const float* input, const float* kernel, float* output, int input_rows,
                                    int input_cols, int kernel_rows, int kernel_cols) {
  int out_rows = input_rows - kernel_rows + 1;
  int out_cols = input_cols - kernel_cols + 1;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < out_rows && col < out_cols) {
    float sum = 0.0f;
    for (int i = 0; i < kernel_rows; ++i)
      for (int j = 0; j < kernel_cols; ++j)
        sum += input[(row + i) * input_cols + col + j] * kernel[i * kernel_cols + j];
    output[row * out_cols + col] = sum;
  }
}

extern "C" void solve(const float* input, const float* kernel, float* output, int input_rows, int input_cols,
                      int kernel_rows, int kernel_cols) {
  int out_rows = input_rows - kernel_rows + 1;
  int out_cols = input_cols - kernel_cols + 1;
  dim3 threadsPerBlock(16, 16);
  dim3 blocksPerGrid((out_cols + threadsPerBlock.x - 1) / threadsPerBlock.x,
                     (out_rows + threadsPerBlock.y - 1) / threadsPerBlock.y);
  convolve_one_output<<<blocksPerGrid, threadsPerBlock>>>(input, kernel, output, input_rows, input_cols, kernel_rows,
                                                          kernel_cols);
  cudaDeviceSynchronize();
}
