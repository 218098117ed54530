// Wrong answer: step 2 without the cudaMemset that zeroes output[0] first.
//
// What it teaches: an output arrives holding whatever the memory held before, here the judge's poison
// (a NaN, or -1.7e38 on the next call). Adding into it with atomicAdd keeps that garbage in the result.
// Some judges happen to hand over zeroed memory, so this passes there and fails here: the statement is
// the contract, and it says output[0] is garbage.
//
// Verdict: wrong answer, on every case.
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int threads = 256;

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void reduce_into_garbage(const float* __restrict__ input, float* output, std::size_t n) {
  __shared__ float warp_sums[threads / 32];
  float sum = 0.0f;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * threads;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x; i < n; i += stride)
    sum += input[i];
  sum = warp_sum(sum);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = sum;
  __syncthreads();
  if (threadIdx.x < 32) {
    sum = warp_sum(threadIdx.x < threads / 32 ? warp_sums[threadIdx.x] : 0.0f);
    if (threadIdx.x == 0) atomicAdd(output, sum); // BUG: output[0] was never set to zero
  }
}

} // namespace

extern "C" void solve(const float* input, float* output, int N) {
  reduce_into_garbage<<<1056, threads>>>(input, output, static_cast<std::size_t>(N));
  cudaDeviceSynchronize();
}
