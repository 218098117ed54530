// Wrong answer: a true mathematical convolution, with the kernel flipped, where the problem asks for a
// cross-correlation.
//
// What it teaches: "convolution" means two things. Signal processing flips the kernel (input[r + i][c
// + j] times kernel[kr−1−i][kc−1−j]); deep learning, PyTorch's conv2d and this problem do not. The
// statement's formula decides, and the two agree only for symmetric kernels (a 1 × 1 kernel, say).
//
// Verdict: wrong answer, on every case with a kernel larger than 1 × 1.
#include <cuda_runtime.h>

#include <cstddef>

__global__ void conv2d_flipped(const float* input, const float* kernel, float* output, int ir, int ic, int kr, int kc) {
  const int orows = ir - kr + 1, ocols = ic - kc + 1;
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r >= orows || c >= ocols) return;
  float sum = 0.0f;
  for (int i = 0; i < kr; ++i)
    for (int j = 0; j < kc; ++j) // BUG: the kernel is flipped
      sum += input[static_cast<std::size_t>(r + i) * ic + c + j] * kernel[(kr - 1 - i) * kc + (kc - 1 - j)];
  output[static_cast<std::size_t>(r) * ocols + c] = sum;
}

extern "C" void solve(const float* input, const float* kernel, float* output, int input_rows, int input_cols,
                      int kernel_rows, int kernel_cols) {
  const int orows = input_rows - kernel_rows + 1, ocols = input_cols - kernel_cols + 1;
  const dim3 threads(16, 16);
  const dim3 blocks((ocols + 15) / 16, (orows + 15) / 16);
  conv2d_flipped<<<blocks, threads>>>(input, kernel, output, input_rows, input_cols, kernel_rows, kernel_cols);
  cudaDeviceSynchronize();
}
