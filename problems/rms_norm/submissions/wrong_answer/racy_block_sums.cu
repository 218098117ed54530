// Wrong answer: step 1 with the blocks' sums added into one float by a plain `+=`.
//
// What it teaches: `*squares += block_sum` from many blocks at once is a race: two blocks load the same
// old sum, each adds its own, and one of the two stores wins. The lost blocks' squares make the rms too
// small and every output too large. With a single block (N <= 256) nothing is lost.
//
// Verdict: wrong answer, on the cases with many blocks (it is a race: which ones can vary).
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int threads = 256;

__global__ void sum_squares_racy(const float* input, std::size_t n, float* squares) {
  __shared__ float values[threads];
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  const float x = i < n ? input[i] : 0.0f;
  values[threadIdx.x] = x * x;
  __syncthreads();
  for (int s = threads / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) values[threadIdx.x] += values[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) *static_cast<volatile float*>(squares) += values[0]; // BUG: not atomic
}

__global__ void normalise(const float* input, float gamma, float beta, float* output, std::size_t n, float eps,
                          const float* squares) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  if (i < n) output[i] = gamma * input[i] / sqrtf(*squares / static_cast<float>(n) + eps) + beta;
}

} // namespace

extern "C" void solve(const float* input, float gamma, float beta, float* output, int N, float eps) {
  static float* squares = nullptr;
  if (!squares) cudaMalloc(&squares, sizeof(float));
  const std::size_t n = static_cast<std::size_t>(N);
  const unsigned blocks = static_cast<unsigned>((n + threads - 1) / threads);
  cudaMemset(squares, 0, sizeof(float));
  sum_squares_racy<<<blocks, threads>>>(input, n, squares);
  normalise<<<blocks, threads>>>(input, gamma, beta, output, n, eps, squares);
  cudaDeviceSynchronize();
}
