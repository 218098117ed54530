// Wrong answer: step 2 without the barrier that ends each chunk of keys.
//
// What it teaches: a shared buffer that is rewritten in a loop needs a barrier at the end of each round
// as well as in the middle. Here the block's fast warps start the next chunk and overwrite the scores
// while slower warps are still reading the old ones, so those warps weigh V's rows with scores of the
// wrong keys.
//
// Verdict: wrong answer, on the cases with more than 128 keys (it is a race: which rows are wrong can
// vary).
#include <cuda_runtime.h>

#include <cfloat>
#include <cstddef>

namespace {
constexpr int threads = 128;
}

__global__ void attention_racy(const float* __restrict__ Q, const float* __restrict__ K, const float* __restrict__ V,
                               float* __restrict__ output, int N, int d) {
  __shared__ float q[threads];
  __shared__ float score[threads];
  const std::size_t row = blockIdx.x;
  if (threadIdx.x < d) q[threadIdx.x] = Q[row * d + threadIdx.x];
  __syncthreads();
  const float scale = 1.0f / sqrtf(static_cast<float>(d));
  float best = -FLT_MAX, sum = 0.0f, acc = 0.0f;
  for (int k0 = 0; k0 < N; k0 += threads) {
    // BUG: no __syncthreads() here: the previous chunk's scores may still be in use.
    const int key = k0 + threadIdx.x;
    float s = -FLT_MAX;
    if (key < N) {
      float dot = 0.0f;
      for (int c = 0; c < d; ++c) dot += q[c] * K[static_cast<std::size_t>(key) * d + c];
      s = dot * scale;
    }
    score[threadIdx.x] = s;
    __syncthreads();
    const int chunk = N - k0 < threads ? N - k0 : threads;
    float chunk_best = -FLT_MAX;
    for (int t = 0; t < chunk; ++t) chunk_best = fmaxf(chunk_best, score[t]);
    const float new_best = fmaxf(best, chunk_best);
    const float rescale = expf(best - new_best);
    sum *= rescale;
    acc *= rescale;
    for (int t = 0; t < chunk; ++t) {
      const float p = expf(score[t] - new_best);
      sum += p;
      if (threadIdx.x < d) acc += p * V[static_cast<std::size_t>(k0 + t) * d + threadIdx.x];
    }
    best = new_best;
  }
  if (threadIdx.x < d) output[row * d + threadIdx.x] = acc / sum;
}

extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int M, int N, int d) {
  attention_racy<<<M, threads>>>(Q, K, V, output, N, d);
  cudaDeviceSynchronize();
}
