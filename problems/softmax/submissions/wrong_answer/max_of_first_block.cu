// Wrong answer: the maximum is taken over the first 1,024 elements only.
//
// What it teaches: subtracting the maximum is only safe with the real maximum. A softmax is the same
// whatever constant is subtracted, so subtracting a smaller one gives the right answer as long as no
// exp(x - m) overflows; that is why this mistake survives random data. Here a one-block kernel of 1,024
// threads finds the maximum, each thread reading one element, with no loop over the rest (BUG); the
// sums and outputs cover all N. On every case before the spike ones the largest value near the end is
// within a few units of the first block's (inputs in [-5, 5), in [-100, 100) with the first block's
// maximum above 99, or all equal), and exp of a few units is harmless. spike_last_500000 has inputs in
// [-5, 5) and a last element of 100: exp(100 - 5) overflows to infinity, the sum is infinite, and the
// last output is inf / inf = NaN.
//
// Verdict: wrong answer, on spike_last_500000 and spike_last_499999.
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int threads = 256;

__global__ void first_block_max(const float* input, std::size_t n, float* max_out) {
  __shared__ float best[1024];
  const int t = threadIdx.x;
  best[t] = static_cast<std::size_t>(t) < n ? input[t] : -INFINITY; // BUG: elements past 1,024 never read
  __syncthreads();
  for (int s = 512; s > 0; s /= 2) {
    if (t < s) best[t] = fmaxf(best[t], best[t + s]);
    __syncthreads();
  }
  if (t == 0) *max_out = best[0];
}

__global__ void exp_sums(const float* input, std::size_t n, const float* max_in, float* partial) {
  __shared__ float values[threads];
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  values[threadIdx.x] = i < n ? expf(input[i] - *max_in) : 0.0f;
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

__global__ void write_softmax(const float* input, float* output, std::size_t n, const float* max_in, const float* sum) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  if (i < n) output[i] = expf(input[i] - *max_in) / *sum;
}

} // namespace

extern "C" void solve(const float* input, float* output, int N) {
  static float* scratch = nullptr;
  static std::size_t capacity = 0;
  const std::size_t n = static_cast<std::size_t>(N);
  const std::size_t blocks = (n + threads - 1) / threads;
  if (blocks + 2 > capacity) {
    cudaFree(scratch);
    cudaMalloc(&scratch, (blocks + 2) * sizeof(float));
    capacity = blocks + 2;
  }
  float* max_value = scratch + blocks;
  float* sum = scratch + blocks + 1;
  first_block_max<<<1, 1024>>>(input, n, max_value);
  exp_sums<<<static_cast<unsigned>(blocks), threads>>>(input, n, max_value, scratch);
  total<<<1, threads>>>(scratch, blocks, sum);
  write_softmax<<<static_cast<unsigned>(blocks), threads>>>(input, output, n, max_value, sum);
  cudaDeviceSynchronize();
}
