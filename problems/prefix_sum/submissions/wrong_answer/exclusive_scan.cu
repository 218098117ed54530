// Wrong answer: an exclusive scan, output[i] = input[0] + ... + input[i-1], where the problem asks for
// the inclusive one.
//
// What it teaches: the two scans differ by one element per output, and the statement says which one is
// wanted (CUB has both, ExclusiveSum and InclusiveSum; so do textbook versions of Blelloch's scan,
// whose down-sweep gives the exclusive one). Every output is off by input[i].
//
// Verdict: wrong answer, on every case (sample_4 gives [0, 1, 3, 6]).
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int threads = 1024;

__global__ void exclusive_scan_one_block(const float* input, float* output, std::size_t n) {
  __shared__ float buffer[2][threads];
  __shared__ float carry;
  if (threadIdx.x == 0) carry = 0.0f;
  for (std::size_t begin = 0; begin < n; begin += threads) {
    const std::size_t i = begin + threadIdx.x;
    int from = 0;
    // BUG: shifting by one element makes the scan exclusive.
    buffer[from][threadIdx.x] = (threadIdx.x > 0 && i - 1 < n) ? input[i - 1] : 0.0f;
    __syncthreads();
    for (int offset = 1; offset < threads; offset *= 2) {
      const float v = buffer[from][threadIdx.x];
      buffer[1 - from][threadIdx.x] = threadIdx.x >= offset ? v + buffer[from][threadIdx.x - offset] : v;
      from = 1 - from;
      __syncthreads();
    }
    const float before = carry;
    if (i < n) output[i] = before + buffer[from][threadIdx.x];
    __syncthreads();
    if (threadIdx.x == threads - 1) carry = before + buffer[from][threadIdx.x] + (i < n ? input[i] : 0.0f);
    __syncthreads();
  }
}

} // namespace

extern "C" void solve(const float* input, float* output, int N) {
  exclusive_scan_one_block<<<1, threads>>>(input, output, static_cast<std::size_t>(N));
  cudaDeviceSynchronize();
}
