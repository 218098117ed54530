// LeetGPU style: a __device__ lambda handed to a kernel template. The map kernel below applies
// whatever function it is given to every element, and solve() passes it the normalisation as a lambda
// capturing gamma, beta and the sum of squares' address by value. nvcc accepts a lambda marked
// __device__ in host code only with --extended-lambda ("__host__ or __device__ annotation on lambda
// requires --extended-lambda nvcc flag"); LeetGPU compiles with it, and so does the judge
// (docs/problem-format.md, "How solutions are compiled"), so the file compiles unchanged.
//
// The kernels: a shared-memory tree of squares per block added by one atomic, then the map (the
// ladder's step 1).
//
// Verdict: accepted.
#include <cuda_runtime.h>

#include <cstddef>

__global__ void sum_squares(const float* input, size_t n, float* squares) {
  __shared__ float values[256];
  size_t i = (size_t)blockIdx.x * 256 + threadIdx.x;
  float x = i < n ? input[i] : 0.0f;
  values[threadIdx.x] = x * x;
  __syncthreads();
  for (int s = 128; s > 0; s /= 2) {
    if (threadIdx.x < s) values[threadIdx.x] += values[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(squares, values[0]);
}

template <typename F> __global__ void map(const float* input, float* output, size_t n, F f) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) output[i] = f(input[i]);
}

// input, output are device pointers
extern "C" void solve(const float* input, float gamma, float beta, float* output, int N, float eps) {
  static float* squares = nullptr;
  if (!squares) cudaMalloc(&squares, sizeof(float));
  size_t n = (size_t)N;
  unsigned blocks = (unsigned)((n + 255) / 256);
  cudaMemset(squares, 0, sizeof(float));
  sum_squares<<<blocks, 256>>>(input, n, squares);
  const float* sq = squares;
  auto normalise = [=] __device__(float x) { return gamma * x / sqrtf(*sq / (float)n + eps) + beta; };
  map<<<blocks, 256>>>(input, output, n, normalise);
  cudaDeviceSynchronize();
}
