// Wrong answer: each block computes the softmax of its own 256 values.
//
// What it teaches: a softmax's maximum and sum are over the whole vector. A block can only see its own
// part through shared memory; everything else needs a global combination (another kernel, an atomic,
// or a last-block merge). This is exactly right for N <= 256, a single block, and wrong beyond.
//
// Verdict: wrong answer, on every case with N > 256.
#include <cuda_runtime.h>

#include <cfloat>
#include <cstddef>

namespace {

constexpr int threads = 256;

__global__ void softmax_block_only(const float* in, float* out, std::size_t n) {
  __shared__ float values[threads];
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  const float x = i < n ? in[i] : -FLT_MAX;
  values[threadIdx.x] = x;
  __syncthreads();
  for (int s = threads / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) values[threadIdx.x] = fmaxf(values[threadIdx.x], values[threadIdx.x + s]);
    __syncthreads();
  }
  const float m = values[0]; // BUG: this block's maximum, not the vector's
  __syncthreads();
  const float e = i < n ? expf(x - m) : 0.0f;
  values[threadIdx.x] = e;
  __syncthreads();
  for (int s = threads / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) values[threadIdx.x] += values[threadIdx.x + s];
    __syncthreads();
  }
  if (i < n) out[i] = e / values[0]; // BUG: this block's sum
}

} // namespace

extern "C" void solve(const float* input, float* output, int N) {
  const std::size_t blocks = (static_cast<std::size_t>(N) + threads - 1) / threads;
  softmax_block_only<<<static_cast<unsigned>(blocks), threads>>>(input, output, static_cast<std::size_t>(N));
  cudaDeviceSynchronize();
}
