// GPU reference of attention, run inside the runner after every timed call to check it, so its speed is
// paid on every sample: one block per query row, in double. The block takes 128 keys at a time: each warp
// computes the scores of a quarter of them, its lanes reading a key's row together (coalesced) and summing
// by shuffles; the thread of each key takes its exponential once; thread j keeps an online softmax
// (running maximum, sum and weighted sum of column j of V) over them. Every thread sees the same scores
// and exponentials, so the statistics agree. Kernel names start with judge_reference_.
#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>

namespace {
constexpr int threads = 128; // d <= 128: one thread per output column
constexpr int warps = threads / 32;
} // namespace

extern "C" __global__ void judge_reference_attention(const float* Q, const float* K, const float* V, float* output,
                                                     int n, int d) {
  __shared__ double q[threads];
  __shared__ double score[threads];
  __shared__ double weight[threads]; // exp(score - the running maximum)
  const std::size_t row = blockIdx.x;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (threadIdx.x < d) q[threadIdx.x] = Q[row * d + threadIdx.x];
  const double scale = 1.0 / sqrt(static_cast<double>(d));
  double best = -INFINITY, sum = 0, acc = 0;
  for (int k0 = 0; k0 < n; k0 += threads) {
    __syncthreads(); // q is written, and the previous chunk's scores and weights are used
    const int chunk = n - k0 < threads ? n - k0 : threads;
    for (int t = warp; t < chunk; t += warps) {
      const float* key = K + static_cast<std::size_t>(k0 + t) * d;
      double dot = 0;
      for (int c = lane; c < d; c += 32) dot += q[c] * static_cast<double>(key[c]);
      for (int offset = 16; offset > 0; offset /= 2) dot += __shfl_xor_sync(0xffffffffu, dot, offset);
      if (lane == 0) score[t] = dot * scale;
    }
    __syncthreads();
    double chunk_best = -INFINITY;
    for (int t = 0; t < chunk; ++t) chunk_best = fmax(chunk_best, score[t]);
    const double new_best = fmax(best, chunk_best);
    const double rescale = exp(best - new_best); // 0 on the first chunk (best = -inf)
    sum *= rescale;
    acc *= rescale;
    if (threadIdx.x < chunk) weight[threadIdx.x] = exp(score[threadIdx.x] - new_best);
    __syncthreads();
    for (int t = 0; t < chunk; ++t) {
      const double p = weight[t];
      sum += p;
      if (threadIdx.x < d) acc += p * static_cast<double>(V[static_cast<std::size_t>(k0 + t) * d + threadIdx.x]);
    }
    best = new_best;
  }
  if (threadIdx.x < d) output[row * d + threadIdx.x] = static_cast<float>(acc / sum);
}

/// Buffers (Q, K, V, output), sizes (M, N, d).
extern "C" void judge_reference_solve(void* const* buffers, const int* sizes, const float* /*scalars*/) {
  judge_reference_attention<<<sizes[0], threads, 0, cudaStreamLegacy>>>(
      static_cast<const float*>(buffers[0]), static_cast<const float*>(buffers[1]),
      static_cast<const float*>(buffers[2]), static_cast<float*>(buffers[3]), sizes[1], sizes[2]);
}
