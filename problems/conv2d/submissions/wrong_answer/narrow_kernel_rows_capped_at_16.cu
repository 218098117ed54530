// Wrong answer: kernels at most 3 columns wide lose every row past the sixteenth.
//
// What it teaches: a compile-time bound must be the problem's bound. Kernels wider than 3 columns go
// through one thread per output with plain loops, which is right. Narrow kernels (at most 3 columns)
// take a path that keeps the weights in registers: a fixed array of 16 × 3 floats, filled and used in
// fully unrolled loops whose `i < kernel_rows` tests skip the rows a smaller kernel does not have. The
// array was sized for kernels up to 16 tall, but the problem allows 31 (BUG): rows 16 to 30 of a taller
// narrow kernel are never added. Every narrow kernel before the tall ones had at most 9 rows (9 × 1,
// 3 × 3, 2 × 2, 1 × 2, 1 × 1), so it passed them all; k31x1_3072x67 and k17x3_1025x515 are missing 15
// and 1 rows of products.
//
// Verdict: wrong answer, on k31x1_3072x67 and k17x3_1025x515 (k15x3_1000x1001 passes).
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int narrow_rows = 16, narrow_cols = 3;

__global__ void convolve_any(const float* input, const float* kernel, float* output, int input_cols, int kernel_rows,
                             int kernel_cols, int out_rows, int out_cols) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r >= out_rows || c >= out_cols) return;
  float sum = 0.0f;
  for (int i = 0; i < kernel_rows; ++i)
    for (int j = 0; j < kernel_cols; ++j)
      sum += input[static_cast<std::size_t>(r + i) * input_cols + c + j] * kernel[i * kernel_cols + j];
  output[static_cast<std::size_t>(r) * out_cols + c] = sum;
}

__global__ void convolve_narrow(const float* input, const float* kernel, float* output, int input_cols, int kernel_rows,
                                int kernel_cols, int out_rows, int out_cols) {
  float w[narrow_rows][narrow_cols]; // BUG: kernel_rows can be up to 31
#pragma unroll
  for (int i = 0; i < narrow_rows; ++i)
#pragma unroll
    for (int j = 0; j < narrow_cols; ++j)
      w[i][j] = i < kernel_rows && j < kernel_cols ? kernel[i * kernel_cols + j] : 0.0f;
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r >= out_rows || c >= out_cols) return;
  float sum = 0.0f;
#pragma unroll
  for (int i = 0; i < narrow_rows; ++i)
#pragma unroll
    for (int j = 0; j < narrow_cols; ++j)
      if (i < kernel_rows && j < kernel_cols)
        sum += input[static_cast<std::size_t>(r + i) * input_cols + c + j] * w[i][j];
  output[static_cast<std::size_t>(r) * out_cols + c] = sum;
}

} // namespace

extern "C" void solve(const float* input, const float* kernel, float* output, int input_rows, int input_cols,
                      int kernel_rows, int kernel_cols) {
  const int out_rows = input_rows - kernel_rows + 1, out_cols = input_cols - kernel_cols + 1;
  const dim3 threads(32, 8);
  const dim3 blocks((out_cols + threads.x - 1) / threads.x, (out_rows + threads.y - 1) / threads.y);
  if (kernel_cols <= narrow_cols)
    convolve_narrow<<<blocks, threads>>>(input, kernel, output, input_cols, kernel_rows, kernel_cols, out_rows,
                                         out_cols);
  else
    convolve_any<<<blocks, threads>>>(input, kernel, output, input_cols, kernel_rows, kernel_cols, out_rows, out_cols);
  cudaDeviceSynchronize();
}
