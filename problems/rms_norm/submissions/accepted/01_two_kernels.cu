// Ladder step 1: a reduction kernel, then a map kernel.
//
// What it teaches: a normalisation is a reduction (the sum of squares) followed by an element-wise map
// (scale and shift), and the map cannot start before the reduction is complete across all blocks. The
// kernel boundary is that grid-wide barrier. Kernel 1 gives each element a thread, adds each block's
// squares in a shared-memory tree and adds the block's sum into one float with atomicAdd (zeroed
// first); kernel 2 computes the scale gamma / rms once per thread and writes gamma·x/rms + beta. gamma,
// beta and eps are plain floats, passed to the kernels by value.
//
// Why it is slow: a thread per element, a barrier per tree level, N / 256 atomics on one address, and
// the input read twice.
//
// Verdict: accepted.
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int threads = 256;

__global__ void sum_squares(const float* input, std::size_t n, float* squares) {
  __shared__ float values[threads];
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  const float x = i < n ? input[i] : 0.0f;
  values[threadIdx.x] = x * x;
  __syncthreads();
  for (int s = threads / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) values[threadIdx.x] += values[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(squares, values[0]);
}

__global__ void normalise(const float* input, float gamma, float beta, float* output, std::size_t n, float eps,
                          const float* squares) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  if (i >= n) return;
  const float rms = sqrtf(*squares / static_cast<float>(n) + eps);
  output[i] = gamma * input[i] / rms + beta;
}

} // namespace

extern "C" void solve(const float* input, float gamma, float beta, float* output, int N, float eps) {
  static float* squares = nullptr;
  if (!squares) cudaMalloc(&squares, sizeof(float));
  const std::size_t n = static_cast<std::size_t>(N);
  const unsigned blocks = static_cast<unsigned>((n + threads - 1) / threads);
  cudaMemset(squares, 0, sizeof(float));
  sum_squares<<<blocks, threads>>>(input, n, squares);
  normalise<<<blocks, threads>>>(input, gamma, beta, output, n, eps, squares);
  cudaDeviceSynchronize();
}
