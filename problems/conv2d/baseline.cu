// The conv2d baseline, hand-written because the CUDA toolkit has no single-channel 2-D convolution of
// plain arrays: the standard tiled design. The kernel goes to constant memory (every thread of a warp
// reads the same weight at once, which the constant cache broadcasts); each block of 32 × 8 threads
// loads a tile of the image with its halo into shared memory and computes 32 × 32 outputs, four rows
// per thread, so each shared-memory value read serves up to four multiply-adds.
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int max_kernel = 31;
constexpr int tile_cols = 32, thread_rows = 8, per_thread = 4, tile_rows = thread_rows * per_thread;

__constant__ float weights[max_kernel * max_kernel];

__global__ void conv2d_tiled(const float* __restrict__ input, float* __restrict__ output, int ir, int ic, int kr,
                             int kc) {
  __shared__ float tile[tile_rows + max_kernel - 1][tile_cols + max_kernel - 1];
  const int orows = ir - kr + 1, ocols = ic - kc + 1;
  const int row0 = blockIdx.y * tile_rows, col0 = blockIdx.x * tile_cols;
  const int rows = tile_rows + kr - 1, cols = tile_cols + kc - 1;
  for (int r = threadIdx.y; r < rows; r += thread_rows)
    for (int c = threadIdx.x; c < cols; c += tile_cols) {
      const int gr = row0 + r, gc = col0 + c;
      tile[r][c] = gr < ir && gc < ic ? input[static_cast<std::size_t>(gr) * ic + gc] : 0.0f;
    }
  __syncthreads();
  float acc[per_thread] = {};
  for (int i = 0; i < kr; ++i)
    for (int j = 0; j < kc; ++j) {
      const float w = weights[i * kc + j];
      for (int q = 0; q < per_thread; ++q) acc[q] += tile[threadIdx.y * per_thread + q + i][threadIdx.x + j] * w;
    }
  const int c = col0 + threadIdx.x;
  for (int q = 0; q < per_thread; ++q) {
    const int r = row0 + threadIdx.y * per_thread + q;
    if (r < orows && c < ocols) output[static_cast<std::size_t>(r) * ocols + c] = acc[q];
  }
}

} // namespace

extern "C" void solve(const float* input, const float* kernel, float* output, int input_rows, int input_cols,
                      int kernel_rows, int kernel_cols) {
  cudaMemcpyToSymbol(weights, kernel, sizeof(float) * kernel_rows * kernel_cols, 0, cudaMemcpyDeviceToDevice);
  const int orows = input_rows - kernel_rows + 1, ocols = input_cols - kernel_cols + 1;
  const dim3 threads(tile_cols, thread_rows);
  const dim3 blocks((ocols + tile_cols - 1) / tile_cols, (orows + tile_rows - 1) / tile_rows);
  conv2d_tiled<<<blocks, threads>>>(input, output, input_rows, input_cols, kernel_rows, kernel_cols);
  cudaDeviceSynchronize();
}
