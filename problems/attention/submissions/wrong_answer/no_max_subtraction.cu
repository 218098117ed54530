// Wrong answer: step 2's online softmax without the running maximum: exp(score) summed as it is.
//
// What it teaches: the maximum is not an optimisation. With scores in a few units it makes no
// difference, which is why this passes the uniform cases; but exp(88.8) is already infinite in float,
// and with scores up to 288 (the wide case) the sums become inf, inf / inf is NaN, and so is the row.
//
// Verdict: wrong answer, on wide_scores (d = 4, |Q|, |K| up to 12).
#include <cuda_runtime.h>

#include <cstddef>

namespace {
constexpr int threads = 128;
}

__global__ void attention_unstable(const float* __restrict__ Q, const float* __restrict__ K,
                                   const float* __restrict__ V, float* __restrict__ output, int N, int d) {
  __shared__ float q[threads];
  __shared__ float weight[threads];
  const std::size_t row = blockIdx.x;
  if (threadIdx.x < d) q[threadIdx.x] = Q[row * d + threadIdx.x];
  const float scale = 1.0f / sqrtf(static_cast<float>(d));
  float sum = 0.0f, acc = 0.0f;
  for (int k0 = 0; k0 < N; k0 += threads) {
    __syncthreads();
    const int key = k0 + threadIdx.x;
    float w = 0.0f;
    if (key < N) {
      float dot = 0.0f;
      for (int c = 0; c < d; ++c) dot += q[c] * K[static_cast<std::size_t>(key) * d + c];
      w = expf(dot * scale); // BUG: no maximum subtracted
    }
    weight[threadIdx.x] = w;
    __syncthreads();
    const int chunk = N - k0 < threads ? N - k0 : threads;
    for (int t = 0; t < chunk; ++t) {
      sum += weight[t];
      if (threadIdx.x < d) acc += weight[t] * V[static_cast<std::size_t>(k0 + t) * d + threadIdx.x];
    }
  }
  if (threadIdx.x < d) output[row * d + threadIdx.x] = acc / sum;
}

extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int M, int N, int d) {
  attention_unstable<<<M, threads>>>(Q, K, V, output, N, d);
  cudaDeviceSynchronize();
}
