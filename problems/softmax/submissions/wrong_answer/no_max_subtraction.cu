// Wrong answer: step 1 without subtracting the maximum: exp(x) / sum exp(x).
//
// What it teaches: the formula is right and the float arithmetic is not. exp(88.8) is already
// infinite in float, so inputs near 100 give inf, the sum is inf, and inf / inf is NaN. With inputs in
// [-5, 5) it happens to pass, which is why the stable form must be a habit: exp(x - max) has no
// exponent above 0.
//
// Verdict: wrong answer, on wide_100 (uniform in [-100, 100)) and equal_500 (every input 500).
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int threads = 256;

__global__ void exp_sums(const float* in, std::size_t n, float* partial) {
  __shared__ float values[threads];
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  values[threadIdx.x] = i < n ? expf(in[i]) : 0.0f; // BUG: no maximum subtracted
  __syncthreads();
  for (int s = threads / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) values[threadIdx.x] += values[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = values[0];
}

__global__ void total(const float* partial, std::size_t blocks, float* sum) {
  __shared__ float values[threads];
  float v = 0.0f;
  for (std::size_t i = threadIdx.x; i < blocks; i += threads) v += partial[i];
  values[threadIdx.x] = v;
  __syncthreads();
  for (int s = threads / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) values[threadIdx.x] += values[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) *sum = values[0];
}

__global__ void write_softmax(const float* in, float* out, std::size_t n, const float* sum) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  if (i < n) out[i] = expf(in[i]) / *sum;
}

} // namespace

extern "C" void solve(const float* input, float* output, int N) {
  static float* scratch = nullptr;
  static std::size_t capacity = 0;
  const std::size_t n = static_cast<std::size_t>(N);
  const std::size_t blocks = (n + threads - 1) / threads;
  if (blocks + 1 > capacity) {
    cudaFree(scratch);
    cudaMalloc(&scratch, (blocks + 1) * sizeof(float));
    capacity = blocks + 1;
  }
  exp_sums<<<static_cast<unsigned>(blocks), threads>>>(input, n, scratch);
  total<<<1, threads>>>(scratch, blocks, scratch + blocks);
  write_softmax<<<static_cast<unsigned>(blocks), threads>>>(input, output, n, scratch + blocks);
  cudaDeviceSynchronize();
}
