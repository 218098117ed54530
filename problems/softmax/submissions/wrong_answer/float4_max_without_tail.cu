// Wrong answer: the maximum is taken over whole float4s only, so the last N % 4 elements are missed.
//
// What it teaches: a missing tail need not show in the sum. The maximum pass reads the input as float4s
// and never looks at the N % 4 elements after the last whole one (BUG); each thread starts its maximum
// from input[0], so that it is defined even when N < 4. The sums and outputs cover all N. Because a
// softmax is the same whatever constant is subtracted, a maximum that misses three elements is harmless
// unless one of them is far above the rest: no case before the spike ones had one, so it passed them
// all. spike_last_499999 has N % 4 = 3 and a last element of 100 among inputs in [-5, 5): the maximum
// found is below 5, exp(100 - 5) overflows to infinity, the sum is infinite, and the last output is
// inf / inf = NaN.
//
// Verdict: wrong answer, on spike_last_499999 (spike_last_500000, whose spike lies in the last whole
// float4, passes).
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int threads = 256;

__global__ void float4_max(const float* input, std::size_t n, float* partial) {
  __shared__ float best[threads];
  const std::size_t groups = n / 4;
  float m = input[0];
  for (std::size_t g = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x; g < groups;
       g += static_cast<std::size_t>(gridDim.x) * threads) {
    const float4 v = reinterpret_cast<const float4*>(input)[g];
    m = fmaxf(m, fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)));
  }
  // BUG: input[groups * 4] .. input[n - 1] are never compared.
  best[threadIdx.x] = m;
  __syncthreads();
  for (int s = threads / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) best[threadIdx.x] = fmaxf(best[threadIdx.x], best[threadIdx.x + s]);
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = best[0];
}

__global__ void block_max(const float* partial, int blocks, float* max_out) {
  __shared__ float best[threads];
  float m = -INFINITY;
  for (int i = threadIdx.x; i < blocks; i += threads) m = fmaxf(m, partial[i]);
  best[threadIdx.x] = m;
  __syncthreads();
  for (int s = threads / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) best[threadIdx.x] = fmaxf(best[threadIdx.x], best[threadIdx.x + s]);
    __syncthreads();
  }
  if (threadIdx.x == 0) *max_out = best[0];
}

__global__ void exp_sums(const float* input, std::size_t n, const float* max_in, float* partial) {
  __shared__ float values[threads];
  float v = 0.0f;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * threads)
    v += expf(input[i] - *max_in);
  values[threadIdx.x] = v;
  __syncthreads();
  for (int s = threads / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) values[threadIdx.x] += values[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = values[0];
}

__global__ void block_sum(const float* partial, int blocks, float* sum) {
  __shared__ float values[threads];
  float v = 0.0f;
  for (int i = threadIdx.x; i < blocks; i += threads) v += partial[i];
  values[threadIdx.x] = v;
  __syncthreads();
  for (int s = threads / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) values[threadIdx.x] += values[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) *sum = values[0];
}

__global__ void write_softmax(const float* input, float* output, std::size_t n, const float* max_in, const float* sum) {
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * threads)
    output[i] = expf(input[i] - *max_in) / *sum;
}

} // namespace

extern "C" void solve(const float* input, float* output, int N) {
  constexpr int blocks = 512;
  static float* scratch = nullptr;
  if (scratch == nullptr) cudaMalloc(&scratch, (2 * blocks + 2) * sizeof(float));
  const std::size_t n = static_cast<std::size_t>(N);
  float* max_value = scratch + 2 * blocks;
  float* sum = max_value + 1;
  float4_max<<<blocks, threads>>>(input, n, scratch);
  block_max<<<1, threads>>>(scratch, blocks, max_value);
  exp_sums<<<blocks, threads>>>(input, n, max_value, scratch + blocks);
  block_sum<<<1, threads>>>(scratch + blocks, blocks, sum);
  write_softmax<<<blocks, threads>>>(input, output, n, max_value, sum);
  cudaDeviceSynchronize();
}
