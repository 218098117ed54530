// Ladder step 1: one thread per output, every operand from global memory.
//
// What it teaches: the index arithmetic of a 2-D problem. A 16 × 16 block covers 16 × 16 outputs;
// thread (x, y) computes output row blockIdx.y·16 + y, column blockIdx.x·16 + x, and reads the
// kernel_rows × kernel_cols window below and to the right of it. Threadx maps to columns, so a warp's
// reads of one input row are consecutive addresses. Threads past the output's edge (the grid is rounded
// up) return before touching memory. Row offsets are computed in size_t: an image of 8192 × 8192 has
// 2^26 elements, and rows · cols must never be formed in a narrower type on larger images.
//
// Why it is slow: each input value is read kernel_rows · kernel_cols times (from L1/L2, but through
// the load pipeline every time), and every multiply-add waits on two loads.
//
// Verdict: accepted.
#include <cuda_runtime.h>

#include <cstddef>

__global__ void conv2d_naive(const float* input, const float* kernel, float* output, int ir, int ic, int kr, int kc) {
  const int orows = ir - kr + 1, ocols = ic - kc + 1;
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r >= orows || c >= ocols) return;
  float sum = 0.0f;
  for (int i = 0; i < kr; ++i)
    for (int j = 0; j < kc; ++j) sum += input[static_cast<std::size_t>(r + i) * ic + c + j] * kernel[i * kc + j];
  output[static_cast<std::size_t>(r) * ocols + c] = sum;
}

extern "C" void solve(const float* input, const float* kernel, float* output, int input_rows, int input_cols,
                      int kernel_rows, int kernel_cols) {
  const int orows = input_rows - kernel_rows + 1, ocols = input_cols - kernel_cols + 1;
  const dim3 threads(16, 16);
  const dim3 blocks((ocols + 15) / 16, (orows + 15) / 16);
  conv2d_naive<<<blocks, threads>>>(input, kernel, output, input_rows, input_cols, kernel_rows, kernel_cols);
  cudaDeviceSynchronize();
}
