// Wrong answer: step 2 with rms = sqrt(mean of squares), eps left out.
//
// What it teaches: eps is not decoration. On typical inputs it changes the result by about eps / (2 ·
// mean of squares), well inside the tolerance, so the mistake passes most tests. On a vector of zeros
// the mean is 0, the division is 0 / 0 and every output is NaN; with a large eps the outputs are off
// by a visible factor.
//
// Verdict: wrong answer, on zeros_1000 (and, graded with --strict, on the robustness case eps_half).
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int threads = 256;

__global__ void sum_squares(const float* __restrict__ input, std::size_t n, float* squares) {
  __shared__ float warps[threads / 32];
  float s = 0.0f;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * threads;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x; i < n; i += stride)
    s += input[i] * input[i];
  for (int offset = 16; offset > 0; offset /= 2) s += __shfl_xor_sync(0xffffffffu, s, offset);
  if (threadIdx.x % 32 == 0) warps[threadIdx.x / 32] = s;
  __syncthreads();
  if (threadIdx.x < 32) {
    s = threadIdx.x < threads / 32 ? warps[threadIdx.x] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2) s += __shfl_xor_sync(0xffffffffu, s, offset);
    if (threadIdx.x == 0) atomicAdd(squares, s);
  }
}

__global__ void normalise(const float* __restrict__ input, float gamma, float beta, float* __restrict__ output,
                          std::size_t n, const float* squares) {
  const float k = gamma / sqrtf(*squares / static_cast<float>(n)); // BUG: + eps is missing
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * threads;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x; i < n; i += stride)
    output[i] = input[i] * k + beta;
}

} // namespace

extern "C" void solve(const float* input, float gamma, float beta, float* output, int N, float eps) {
  static float* squares = nullptr;
  if (!squares) cudaMalloc(&squares, sizeof(float));
  const std::size_t n = static_cast<std::size_t>(N);
  cudaMemset(squares, 0, sizeof(float));
  sum_squares<<<1056, threads>>>(input, n, squares);
  normalise<<<1056, threads>>>(input, gamma, beta, output, n, squares);
  (void)eps;
  cudaDeviceSynchronize();
}
