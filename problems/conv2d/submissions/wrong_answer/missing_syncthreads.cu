// Wrong answer: step 2 without the __syncthreads() between loading the patch and using it.
//
// What it teaches: the patch is loaded by all 256 threads, each a few elements, and read by all of
// them, each many elements written by other warps. Without the barrier a warp can start multiplying
// while the elements it needs are still on their way from global memory or not yet stored, and it
// reads whatever the shared memory held before (an earlier block's patch, or garbage).
//
// Verdict: wrong answer (it is a race: the cases it fails can vary from run to run).
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int max_kernel = 31;
constexpr int tile_cols = 32, tile_rows = 8;

__constant__ float weights[max_kernel * max_kernel];

__global__ void conv2d_shared_racy(const float* __restrict__ input, float* __restrict__ output, int ir, int ic, int kr,
                                   int kc) {
  __shared__ float patch[tile_rows + max_kernel - 1][tile_cols + max_kernel - 1];
  const int orows = ir - kr + 1, ocols = ic - kc + 1;
  const int row0 = blockIdx.y * tile_rows, col0 = blockIdx.x * tile_cols;
  for (int r = threadIdx.y; r < tile_rows + kr - 1; r += tile_rows)
    for (int c = threadIdx.x; c < tile_cols + kc - 1; c += tile_cols) {
      const int gr = row0 + r, gc = col0 + c;
      patch[r][c] = gr < ir && gc < ic ? input[static_cast<std::size_t>(gr) * ic + gc] : 0.0f;
    }
  // BUG: no __syncthreads() here
  const int r = row0 + threadIdx.y, c = col0 + threadIdx.x;
  if (r >= orows || c >= ocols) return;
  float sum = 0.0f;
  for (int i = 0; i < kr; ++i)
    for (int j = 0; j < kc; ++j) sum += patch[threadIdx.y + i][threadIdx.x + j] * weights[i * kc + j];
  output[static_cast<std::size_t>(r) * ocols + c] = sum;
}

} // namespace

extern "C" void solve(const float* input, const float* kernel, float* output, int input_rows, int input_cols,
                      int kernel_rows, int kernel_cols) {
  cudaMemcpyToSymbol(weights, kernel, sizeof(float) * kernel_rows * kernel_cols, 0, cudaMemcpyDeviceToDevice);
  const int orows = input_rows - kernel_rows + 1, ocols = input_cols - kernel_cols + 1;
  const dim3 threads(tile_cols, tile_rows);
  const dim3 blocks((ocols + tile_cols - 1) / tile_cols, (orows + tile_rows - 1) / tile_rows);
  conv2d_shared_racy<<<blocks, threads>>>(input, output, input_rows, input_cols, kernel_rows, kernel_cols);
  cudaDeviceSynchronize();
}
