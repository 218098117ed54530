// Wrong answer: solve() declared with beta before gamma.
//
// What it teaches: float parameters are matched by position, not by name. The signature is
// solve(input, gamma, beta, output, N, eps); this solution names the second parameter beta and the
// third gamma, so it scales by beta and shifts by gamma. It compiles (the types are the same) and is
// right only when gamma = 1 and beta = 0 are swapped into ... nothing: with the default gamma = 1,
// beta = 0 it computes x / rms · 0 + 1 = 1 everywhere.
//
// Verdict: wrong answer, on every case.
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int threads = 256;

__global__ void sum_squares(const float* __restrict__ input, std::size_t n, float* squares) {
  float s = 0.0f;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * threads;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x; i < n; i += stride)
    s += input[i] * input[i];
  for (int offset = 16; offset > 0; offset /= 2) s += __shfl_xor_sync(0xffffffffu, s, offset);
  if (threadIdx.x % 32 == 0) atomicAdd(squares, s);
}

__global__ void normalise(const float* __restrict__ input, float gamma, float beta, float* __restrict__ output,
                          std::size_t n, float eps, const float* squares) {
  const float k = gamma / sqrtf(*squares / static_cast<float>(n) + eps);
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * threads;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x; i < n; i += stride)
    output[i] = input[i] * k + beta;
}

} // namespace

// BUG: the second and third parameters are beta and gamma here, gamma and beta in the problem.
extern "C" void solve(const float* input, float beta, float gamma, float* output, int N, float eps) {
  static float* squares = nullptr;
  if (!squares) cudaMalloc(&squares, sizeof(float));
  const std::size_t n = static_cast<std::size_t>(N);
  cudaMemset(squares, 0, sizeof(float));
  sum_squares<<<1056, threads>>>(input, n, squares);
  normalise<<<1056, threads>>>(input, gamma, beta, output, n, eps, squares);
  cudaDeviceSynchronize();
}
