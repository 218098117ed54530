// GPU reference of conv2d, run inside the runner to check timed calls: one thread per output, the sum
// of products in double, rounded once. Kernel names start with judge_reference_.
#include <cuda_runtime.h>

#include <cstddef>

extern "C" __global__ void judge_reference_conv2d(const float* input, const float* kernel, float* output, int ir,
                                                  int ic, int kr, int kc) {
  const int orows = ir - kr + 1, ocols = ic - kc + 1;
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  const int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r >= orows || c >= ocols) return;
  double sum = 0;
  for (int i = 0; i < kr; ++i)
    for (int j = 0; j < kc; ++j)
      sum += static_cast<double>(input[static_cast<std::size_t>(r + i) * ic + c + j]) *
             static_cast<double>(kernel[i * kc + j]);
  output[static_cast<std::size_t>(r) * ocols + c] = static_cast<float>(sum);
}

/// Buffers (input, kernel, output), sizes (input_rows, input_cols, kernel_rows, kernel_cols).
extern "C" void judge_reference_solve(void* const* buffers, const int* sizes, const float* /*scalars*/) {
  const int orows = sizes[0] - sizes[2] + 1, ocols = sizes[1] - sizes[3] + 1;
  const dim3 threads(32, 8);
  const dim3 blocks((ocols + 31) / 32, (orows + 7) / 8);
  judge_reference_conv2d<<<blocks, threads, 0, cudaStreamLegacy>>>(
      static_cast<const float*>(buffers[0]), static_cast<const float*>(buffers[1]), static_cast<float*>(buffers[2]),
      sizes[0], sizes[1], sizes[2], sizes[3]);
}
