// Wrong answer: step 1's block scan without the second level: each block scans its 256 values alone.
//
// What it teaches: a block scan is only part of a scan. Block b's outputs need the totals of blocks
// 0 .. b-1 added to them; without that, only the first block is right. It passes every case with
// N <= 256, which is exactly what a first test tries.
//
// Verdict: wrong answer, on every case with N > 256.
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int threads = 256;

__global__ void scan_each_block_alone(const float* in, float* out, std::size_t n) {
  __shared__ float buffer[2][threads];
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  int from = 0;
  buffer[from][threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int offset = 1; offset < threads; offset *= 2) {
    const float v = buffer[from][threadIdx.x];
    buffer[1 - from][threadIdx.x] = threadIdx.x >= offset ? v + buffer[from][threadIdx.x - offset] : v;
    from = 1 - from;
    __syncthreads();
  }
  if (i < n) out[i] = buffer[from][threadIdx.x]; // BUG: the blocks before this one are not added
}

} // namespace

extern "C" void solve(const float* input, float* output, int N) {
  const std::size_t blocks = (static_cast<std::size_t>(N) + threads - 1) / threads;
  scan_each_block_alone<<<static_cast<unsigned>(blocks), threads>>>(input, output, static_cast<std::size_t>(N));
  cudaDeviceSynchronize();
}
