// Ladder step 2: the kernel in constant memory, the image tile and its halo in shared memory.
//
// What it teaches: the two memories made for this access pattern.
//  - Constant memory: all 32 threads of a warp read the same weight kernel[i][j] at the same time, and
//    the constant cache serves one address to a whole warp in one transaction. The weights are copied
//    there at the start of solve() (cudaMemcpyToSymbol, device to device: they are already on the GPU).
//  - Shared memory with a halo: a block's 32 × 8 outputs need a (8 + kernel_rows − 1) ×
//    (32 + kernel_cols − 1) patch of the image; the block loads it once, cooperatively and coalesced
//    (zeros past the image edge), waits at a __syncthreads(), and then reads every operand from shared
//    memory. Without that barrier a thread reads a patch element another warp has not yet written
//    (wrong_answer/missing_syncthreads.cu).
//
// What is left: each thread computes one output, so each shared-memory load feeds one multiply-add.
//
// Verdict: accepted.
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int max_kernel = 31;
constexpr int tile_cols = 32, tile_rows = 8;

__constant__ float weights[max_kernel * max_kernel];

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
  conv2d_shared<<<blocks, threads>>>(input, output, input_rows, input_cols, kernel_rows, kernel_cols);
  cudaDeviceSynchronize();
}
