// Wrong answer: step 1 with the barriers of its maximum's tree left out.
//
// What it teaches: a shared-memory tree is only a tree if each level waits for the one before. Without
// __syncthreads() a warp reads a partner's slot before the partner's warp has written its level, so a
// block's "maximum" can be a value that is not the maximum. exp(x - m) with too small an m can exceed 1,
// and the outputs no longer sum to 1.
//
// Verdict: wrong answer, on the cases large enough to have many blocks (it is a race: which cases fail
// can vary).
#include <cuda_runtime.h>

#include <cfloat>
#include <cstddef>

namespace {

constexpr int threads = 256;

__global__ void block_max_racy(const float* in, std::size_t n, float* partial) {
  __shared__ float values[threads];
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  values[threadIdx.x] = i < n ? in[i] : -FLT_MAX;
  __syncthreads();
  for (int s = threads / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) values[threadIdx.x] = fmaxf(values[threadIdx.x], values[threadIdx.x + s]);
    // BUG: no __syncthreads() between the levels
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = values[0];
}

__global__ void finish(const float* in, float* out, std::size_t n, const float* partial, std::size_t blocks) {
  // One block: the maximum of the partials, the sum, then every output (slow, but not the bug).
  __shared__ float values[threads];
  float m = -FLT_MAX;
  for (std::size_t b = threadIdx.x; b < blocks; b += threads) m = fmaxf(m, partial[b]);
  values[threadIdx.x] = m;
  __syncthreads();
  for (int s = threads / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) values[threadIdx.x] = fmaxf(values[threadIdx.x], values[threadIdx.x + s]);
    __syncthreads();
  }
  m = values[0];
  __syncthreads();
  float sum = 0.0f;
  for (std::size_t i = threadIdx.x; i < n; i += threads) sum += expf(in[i] - m);
  values[threadIdx.x] = sum;
  __syncthreads();
  for (int s = threads / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) values[threadIdx.x] += values[threadIdx.x + s];
    __syncthreads();
  }
  sum = values[0];
  for (std::size_t i = threadIdx.x; i < n; i += threads) out[i] = expf(in[i] - m) / sum;
}

} // namespace

extern "C" void solve(const float* input, float* output, int N) {
  static float* partial = nullptr;
  static std::size_t capacity = 0;
  const std::size_t n = static_cast<std::size_t>(N);
  const std::size_t blocks = (n + threads - 1) / threads;
  if (blocks > capacity) {
    cudaFree(partial);
    cudaMalloc(&partial, blocks * sizeof(float));
    capacity = blocks;
  }
  block_max_racy<<<static_cast<unsigned>(blocks), threads>>>(input, n, partial);
  finish<<<1, threads>>>(input, output, n, partial, blocks);
  cudaDeviceSynchronize();
}
