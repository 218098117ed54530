// Wrong answer: step 3 without the N % 4 values that do not fill a float4.
//
// What it teaches: vectorising divides N by 4, and the remainder is still data. The sum leaves out the
// last N % 4 values: with N = 1 it is 0, and on N = 1001 it misses a value far larger than the rounding
// a float sum of 1001 terms is allowed. (At N = 16,777,219 with inputs in [-1, 1) the allowance is about
// 90, so three missing values pass there; the exact cases on whole numbers catch them at any size.)
//
// Verdict: wrong answer, on n_1, n_2, n_3, n_1001 and the other cases whose N is not a multiple of 4.
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int threads = 512;

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void reduce_float4_only(const float* __restrict__ input, float* output, std::size_t n) {
  __shared__ float warp_sums[threads / 32];
  const std::size_t groups = n / 4; // BUG: the last n % 4 values are never read
  const auto* input4 = reinterpret_cast<const float4*>(input);
  float sum = 0.0f;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * threads;
  for (std::size_t g = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x; g < groups; g += stride) {
    const float4 a = input4[g];
    sum += (a.x + a.y) + (a.z + a.w);
  }
  sum = warp_sum(sum);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = sum;
  __syncthreads();
  if (threadIdx.x < 32) {
    sum = warp_sum(threadIdx.x < threads / 32 ? warp_sums[threadIdx.x] : 0.0f);
    if (threadIdx.x == 0) atomicAdd(output, sum);
  }
}

} // namespace

extern "C" void solve(const float* input, float* output, int N) {
  cudaMemset(output, 0, sizeof(float));
  reduce_float4_only<<<528, threads>>>(input, output, static_cast<std::size_t>(N));
  cudaDeviceSynchronize();
}
