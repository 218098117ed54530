// Run-time error: one block per query row with one thread per key.
//
// What it teaches: a block has at most 1024 threads, and N is up to 16,384. The kernel is right for
// N <= 1024 (each thread scores its key; a shared-memory tree finds the maximum and the sum), and the
// launch is refused above that (cudaErrorInvalidConfiguration): nothing runs. Work larger than a block
// has to loop (accepted/02 walks the keys in chunks of 128).
//
// Verdict: run-time error, on every case with N > 1024.
#include <cuda_runtime.h>

#include <cfloat>
#include <cstddef>

__global__ void attention_thread_per_key(const float* Q, const float* K, const float* V, float* output, int N, int d) {
  extern __shared__ float shared[]; // [N] weights, then [blockDim] for the trees
  float* weight = shared;
  float* tree = shared + N;
  const std::size_t row = blockIdx.x;
  const int key = threadIdx.x;
  float dot = 0.0f;
  for (int c = 0; c < d; ++c) dot += Q[row * d + c] * K[static_cast<std::size_t>(key) * d + c];
  const float s = dot / sqrtf(static_cast<float>(d));
  tree[key] = s;
  __syncthreads();
  for (int half = 1; half < N; half *= 2) {
    const float other = key + half < N && key % (2 * half) == 0 ? tree[key + half] : -FLT_MAX;
    __syncthreads();
    if (key % (2 * half) == 0) tree[key] = fmaxf(tree[key], other);
    __syncthreads();
  }
  const float best = tree[0];
  __syncthreads();
  weight[key] = expf(s - best);
  tree[key] = weight[key];
  __syncthreads();
  for (int half = 1; half < N; half *= 2) {
    const float other = key + half < N && key % (2 * half) == 0 ? tree[key + half] : 0.0f;
    __syncthreads();
    if (key % (2 * half) == 0) tree[key] += other;
    __syncthreads();
  }
  const float sum = tree[0];
  for (int c = key; c < d; c += N) {
    float acc = 0.0f;
    for (int k = 0; k < N; ++k) acc += weight[k] * V[static_cast<std::size_t>(k) * d + c];
    output[row * d + c] = acc / sum;
  }
}

extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int M, int N, int d) {
  // BUG: N threads per block; above 1024 the launch is refused.
  attention_thread_per_key<<<M, N, 2 * N * sizeof(float)>>>(Q, K, V, output, N, d);
  cudaDeviceSynchronize();
}
