// Wrong answer: each block adds its partial sum into output[0] with a plain `+=` instead of atomicAdd.
//
// What it teaches: `output[0] += sum` is a load, an add and a store. Two blocks that load the same old
// value both store their own sum on top of it, and one of the two partial sums is lost. It can pass when
// there is a single block (small N) or when the blocks happen not to overlap, which is why races survive
// small tests; with hundreds of blocks finishing at once, sums go missing on every call.
//
// Verdict: wrong answer, on the cases large enough for many blocks (which ones can vary: it is a race).
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int threads = 256;

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void reduce_racy(const float* __restrict__ input, float* output, std::size_t n) {
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
    if (threadIdx.x == 0) *static_cast<volatile float*>(output) += sum; // BUG: not atomic
  }
}

} // namespace

extern "C" void solve(const float* input, float* output, int N) {
  cudaMemset(output, 0, sizeof(float));
  // One block per 2048 elements: many blocks finish at about the same time.
  const std::size_t blocks = (static_cast<std::size_t>(N) + 2047) / 2048;
  reduce_racy<<<static_cast<unsigned>(blocks < 65535 ? blocks : 65535), threads>>>(input, output,
                                                                                   static_cast<std::size_t>(N));
  cudaDeviceSynchronize();
}
