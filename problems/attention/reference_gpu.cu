// GPU reference of attention, run inside the runner to check timed calls: one block per query row, in
// double. The block computes 128 scores at a time (one key per thread), and thread j keeps an online
// softmax (running maximum, sum and weighted sum of column j of V) over them; every thread sees the same
// scores, so the statistics agree. Kernel names start with judge_reference_.
#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>

namespace {
constexpr int threads = 128; // d <= 128: one thread per output column
}

extern "C" __global__ void judge_reference_attention(const float* Q, const float* K, const float* V, float* output,
                                                     int n, int d) {
  __shared__ double q[threads];
  __shared__ double score[threads];
  const std::size_t row = blockIdx.x;
  if (threadIdx.x < d) q[threadIdx.x] = Q[row * d + threadIdx.x];
  const double scale = 1.0 / sqrt(static_cast<double>(d));
  double best = -INFINITY, sum = 0, acc = 0;
  for (int k0 = 0; k0 < n; k0 += threads) {
    __syncthreads(); // q is written, and the previous chunk's scores are used
    const int key = k0 + threadIdx.x;
    if (key < n) {
      double dot = 0;
      for (int c = 0; c < d; ++c) dot += q[c] * static_cast<double>(K[static_cast<std::size_t>(key) * d + c]);
      score[threadIdx.x] = dot * scale;
    }
    __syncthreads();
    const int chunk = n - k0 < threads ? n - k0 : threads;
    double chunk_best = -INFINITY;
    for (int t = 0; t < chunk; ++t) chunk_best = fmax(chunk_best, score[t]);
    const double new_best = fmax(best, chunk_best);
    const double rescale = exp(best - new_best); // 0 on the first chunk (best = -inf)
    sum *= rescale;
    acc *= rescale;
    for (int t = 0; t < chunk; ++t) {
      const double p = exp(score[t] - new_best);
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
