// Wrong answer: the output written with the input's row length.
//
// What it teaches: the output is narrower than the input by kernel_cols − 1 columns, so its rows are
// shorter. Writing output[r · input_cols + c] puts each row in the wrong place, and the last rows would
// fall past the end of the buffer (this version at least checks that and drops them). With a 1-column
// kernel the two widths agree, which is the case this survives.
//
// Verdict: wrong answer, on every case whose kernel is wider than one column.
#include <cuda_runtime.h>

#include <cstddef>

__global__ void conv2d_wrong_pitch(const float* input, const float* kernel, float* output, int ir, int ic, int kr,
                                   int kc) {
  const int orows = ir - kr + 1, ocols = ic - kc + 1;
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r >= orows || c >= ocols) return;
  float sum = 0.0f;
  for (int i = 0; i < kr; ++i)
    for (int j = 0; j < kc; ++j) sum += input[static_cast<std::size_t>(r + i) * ic + c + j] * kernel[i * kc + j];
  const std::size_t at = static_cast<std::size_t>(r) * ic + c; // BUG: the output's rows are ocols long
  if (at < static_cast<std::size_t>(orows) * ocols) output[at] = sum;
}

extern "C" void solve(const float* input, const float* kernel, float* output, int input_rows, int input_cols,
                      int kernel_rows, int kernel_cols) {
  const int orows = input_rows - kernel_rows + 1, ocols = input_cols - kernel_cols + 1;
  const dim3 threads(16, 16);
  const dim3 blocks((ocols + 15) / 16, (orows + 15) / 16);
  conv2d_wrong_pitch<<<blocks, threads>>>(input, kernel, output, input_rows, input_cols, kernel_rows, kernel_cols);
  cudaDeviceSynchronize();
}
