// Run-time error: constant memory sized for LeetGPU's 15 × 15 kernel only.
//
// What it teaches: a fixed-size buffer is a limit of the program, and the statement's limits are the
// ones that count (kernels up to 31 × 31). cudaMemcpyToSymbol refuses to copy past the end of the
// symbol (cudaErrorInvalidValue), so on a larger kernel the weights never arrive; the judge sees the
// error after solve() and reports a run-time error. Checking the return value of every CUDA call
// would have shown it at once.
//
// Verdict: run-time error, on the cases with kernels of more than 225 weights.
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int tile_cols = 32, tile_rows = 8, max_kernel = 31;

__constant__ float weights[15 * 15]; // BUG: kernels may have up to 31 × 31 weights

__global__ void conv2d_shared(const float* __restrict__ input, float* __restrict__ output, int ir, int ic, int kr,
                              int kc) {
  __shared__ float patch[tile_rows + max_kernel - 1][tile_cols + max_kernel - 1];
  const int orows = ir - kr + 1, ocols = ic - kc + 1;
  const int row0 = blockIdx.y * tile_rows, col0 = blockIdx.x * tile_cols;
  for (int r = threadIdx.y; r < tile_rows + kr - 1; r += tile_rows)
    for (int c = threadIdx.x; c < tile_cols + kc - 1; c += tile_cols) {
      const int gr = row0 + r, gc = col0 + c;
      patch[r][c] = gr < ir && gc < ic ? input[static_cast<std::size_t>(gr) * ic + gc] : 0.0f;
    }
  __syncthreads();
  const int r = row0 + threadIdx.y, c = col0 + threadIdx.x;
  if (r >= orows || c >= ocols) return;
  float sum = 0.0f;
  for (int i = 0; i < kr; ++i)
    for (int j = 0; j < kc; ++j) sum += patch[threadIdx.y + i][threadIdx.x + j] * weights[(i * kc + j) % 225];
  output[static_cast<std::size_t>(r) * ocols + c] = sum;
}

} // namespace

extern "C" void solve(const float* input, const float* kernel, float* output, int input_rows, int input_cols,
                      int kernel_rows, int kernel_cols) {
  cudaMemcpyToSymbol(weights, kernel, sizeof(float) * kernel_rows * kernel_cols, 0, cudaMemcpyDeviceToDevice);
  const int orows = input_rows - kernel_rows + 1, ocols = input_cols - kernel_cols + 1;
  const dim3 threads(tile_cols, tile_rows);
  const dim3 blocks((ocols + tile_cols - 1) / tile_cols, (orows + tile_rows - 1) / tile_rows);
  conv2d_shared<<<blocks, threads>>>(input, output, input_rows, input_cols, kernel_rows, kernel_cols);
  cudaDeviceSynchronize();
}
