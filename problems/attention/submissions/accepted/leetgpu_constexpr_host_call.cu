// LeetGPU style: device code calling constexpr host functions of the C++ standard library. The kernel
// scales by 1 / std::sqrt(d) with d an int, and keeps its running maximum with std::max. Neither has a
// __device__ overload: std::sqrt of an integer is libstdc++'s constexpr template (it returns a double),
// and std::max is a constexpr template of <algorithm>. nvcc refuses such calls in device code ("calling a
// constexpr __host__ function from a __global__ function is not allowed") unless
// --expt-relaxed-constexpr is given; LeetGPU compiles with it, and so does the judge
// (docs/problem-format.md, "How solutions are compiled"), so the file compiles unchanged.
//
// The kernel: one thread per query row, two passes over the keys (the ladder's step 1).
//
// Verdict: accepted.
#include <cuda_runtime.h>

#include <algorithm>
#include <cfloat>
#include <cmath>

__global__ void attention_kernel(const float* Q, const float* K, const float* V, float* output, int M, int N, int d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= M) return;
  const float* q = Q + (size_t)i * d;
  float* out = output + (size_t)i * d;
  const float scale = 1.0f / std::sqrt(d); // a constexpr host function: std::sqrt<int>
  float best = -FLT_MAX;
  for (int k = 0; k < N; ++k) {
    float dot = 0.0f;
    for (int c = 0; c < d; ++c) dot += q[c] * K[(size_t)k * d + c];
    best = std::max(best, dot * scale); // another one: std::max<float>
  }
  for (int c = 0; c < d; ++c) out[c] = 0.0f;
  float sum = 0.0f;
  for (int k = 0; k < N; ++k) {
    float dot = 0.0f;
    for (int c = 0; c < d; ++c) dot += q[c] * K[(size_t)k * d + c];
    float p = expf(dot * scale - best);
    sum += p;
    for (int c = 0; c < d; ++c) out[c] += p * V[(size_t)k * d + c];
  }
  for (int c = 0; c < d; ++c) out[c] /= sum;
}

// Q, K, V, output are device pointers
extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int M, int N, int d) {
  int threads = 128;
  attention_kernel<<<(M + threads - 1) / threads, threads>>>(Q, K, V, output, M, N, d);
  cudaDeviceSynchronize();
}
