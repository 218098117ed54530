// Wrong answer: large inputs lose their last element when N is not a multiple of 4.
//
// What it teaches: a sum's tolerance grows with N, so at large N a mistake of one element hides inside
// it on random data; only data whose sum is exact can show it. Inputs below 2^20 elements go through a
// plain grid-stride kernel, which is right. From 2^20 on, each thread reads float4s, and the N % 4
// values left over after the last whole float4 are added by one thread in a loop written with N - 1 as
// its bound, as if the bound were inclusive: when N % 4 != 0 the last element is never added (BUG).
// On the cases with random floats that reach this path (N = 1,000,003 and 2^24 + 3, with tolerances
// of about 5 and 90) one missing value below 1 in magnitude passes; so it did on every case before the
// exact ones. alternating_16777215 sums +1, -1, +1, ... over an odd N to exactly 1, compared exactly:
// without its last +1 the sum is 0.
//
// Verdict: wrong answer, on alternating_16777215 (and, unless the dropped element happens to be 0, on
// integers_2097151).
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int threads = 256;

__device__ float block_sum(float v) {
  __shared__ float warp_sums[threads / 32];
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
  __syncthreads();
  v = threadIdx.x < threads / 32 ? warp_sums[threadIdx.x] : 0.0f;
  if (threadIdx.x < 32)
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void sum_scalars(const float* __restrict__ input, float* output, std::size_t n) {
  float v = 0.0f;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * threads)
    v += input[i];
  v = block_sum(v);
  if (threadIdx.x == 0) atomicAdd(output, v);
}

__global__ void sum_float4s(const float* __restrict__ input, float* output, std::size_t n) {
  const std::size_t groups = n / 4;
  const float4* vectors = reinterpret_cast<const float4*>(input);
  float v = 0.0f;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x; i < groups;
       i += static_cast<std::size_t>(gridDim.x) * threads) {
    const float4 g = vectors[i];
    v += (g.x + g.y) + (g.z + g.w);
  }
  if (blockIdx.x == 0 && threadIdx.x == 0)
    for (std::size_t i = groups * 4; i < n - 1; ++i) v += input[i]; // BUG: the bound is n, not n - 1
  v = block_sum(v);
  if (threadIdx.x == 0) atomicAdd(output, v);
}

} // namespace

extern "C" void solve(const float* input, float* output, int N) {
  const std::size_t n = static_cast<std::size_t>(N);
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  cudaMemset(output, 0, sizeof(float));
  if (n < (std::size_t{1} << 20)) {
    const std::size_t blocks = (n + threads - 1) / threads;
    sum_scalars<<<static_cast<unsigned>(blocks < 4u * sms ? blocks : 4u * sms), threads>>>(input, output, n);
  } else {
    sum_float4s<<<4 * sms, threads>>>(input, output, n);
  }
  cudaDeviceSynchronize();
}
