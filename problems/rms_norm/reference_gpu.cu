// GPU reference of rms_norm, run inside the runner to check timed calls: the sum of squares in double
// (per-thread sums, warp shuffles, one double atomic per warp), then every output in double, rounded
// once. Kernel names start with judge_reference_.
#include <cuda_runtime.h>

#include <cstddef>

namespace {
double* sum_slot() {
  static double* slot = nullptr;
  if (!slot) cudaMalloc(&slot, sizeof(double));
  return slot;
}
} // namespace

extern "C" __global__ void judge_reference_rms_squares(const float* input, std::size_t n, double* squares) {
  double s = 0;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    s += static_cast<double>(input[i]) * static_cast<double>(input[i]);
  for (int offset = 16; offset > 0; offset /= 2) s += __shfl_down_sync(0xffffffffu, s, offset);
  if (threadIdx.x % 32 == 0) atomicAdd(squares, s);
}

extern "C" __global__ void judge_reference_rms_out(const float* input, float* output, std::size_t n,
                                                   const double* squares, double gamma, double beta, double eps) {
  const double rms = sqrt(*squares / static_cast<double>(n) + eps);
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    output[i] = static_cast<float>(gamma * static_cast<double>(input[i]) / rms + beta);
}

/// Buffers (input, output), sizes (N), scalars (gamma, beta, eps), each in signature order.
extern "C" void judge_reference_solve(void* const* buffers, const int* sizes, const float* scalars) {
  const auto* input = static_cast<const float*>(buffers[0]);
  auto* output = static_cast<float*>(buffers[1]);
  const std::size_t n = static_cast<std::size_t>(sizes[0]);
  double* squares = sum_slot();
  cudaMemsetAsync(squares, 0, sizeof(double), cudaStreamLegacy);
  judge_reference_rms_squares<<<1024, 256, 0, cudaStreamLegacy>>>(input, n, squares);
  judge_reference_rms_out<<<1024, 256, 0, cudaStreamLegacy>>>(input, output, n, squares, scalars[0], scalars[1],
                                                              scalars[2]);
}
