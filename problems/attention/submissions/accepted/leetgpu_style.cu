// Accepted: softmax attention as public LeetGPU solutions write it.
//
// What it shows: one thread per query row, a grid of (M + 255) / 256 blocks of 256 threads, `int`
// indices. The thread walks the keys twice: first for the row's largest score, then for each key's
// weight exp(score - max), adding the weight to the row's sum and weight · V[key] to an accumulator of d
// floats; it divides by the sum at the end. No M × N score matrix: on LeetGPU's largest shapes (M = N =
// 100,000) one would take 40 GB, and its index row * N + key would overflow an int.
// cudaDeviceSynchronize() at the end. Slow (each thread reads every key), but right for every shape.
//
// Verdict: accepted. Within LeetGPU's limits (M, N <= 100,000, d <= 128) the largest index, row * d + c
// or key * d + c, is below 1.3 · 10^7.
// Robustness: an int index would wrap once M · d or N · d passed 2^31 - 1; attention has no case beyond
// the limits, so the judge never runs it there.
#include <cuda_runtime.h>

__global__ void attention_row(const float* Q, const float* K, const float* V, float* output, int M, int N, int d) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M) return;
  float scale = 1.0f / sqrtf((float)d);
  const float* q = Q + row * d;

  float max_score = -INFINITY;
  for (int key = 0; key < N; ++key) {
    float dot = 0.0f;
    for (int c = 0; c < d; ++c) dot += q[c] * K[key * d + c];
    max_score = fmaxf(max_score, dot * scale);
  }

  float acc[128];
  for (int c = 0; c < d; ++c) acc[c] = 0.0f;
  float sum = 0.0f;
  for (int key = 0; key < N; ++key) {
    float dot = 0.0f;
    for (int c = 0; c < d; ++c) dot += q[c] * K[key * d + c];
    float weight = expf(dot * scale - max_score);
    sum += weight;
    for (int c = 0; c < d; ++c) acc[c] += weight * V[key * d + c];
  }
  for (int c = 0; c < d; ++c) output[row * d + c] = acc[c] / sum;
}

extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int M, int N, int d) {
  int threadsPerBlock = 256;
  int blocksPerGrid = (M + threadsPerBlock - 1) / threadsPerBlock;
  attention_row<<<blocksPerGrid, threadsPerBlock>>>(Q, K, V, output, M, N, d);
  cudaDeviceSynchronize();
}
