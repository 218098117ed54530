// Wrong answer: a Hillis-Steele scan in one shared array, with no barrier between its steps.
//
// What it teaches: at step `offset`, thread t reads element t - offset, which another warp may already
// have overwritten with its own step's sum, or not yet updated from the step before. Either way the
// value is from the wrong step. Double buffering and a __syncthreads() per step (accepted/01) are both
// needed: the barrier orders the steps, the second buffer keeps a step's reads apart from its writes.
//
// Verdict: wrong answer, on the cases with more than one warp of data per block (it is a race, so the
// exact elements vary from run to run).
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int threads = 256;

__global__ void scan_blocks_racy(const float* in, float* out, float* totals, std::size_t n) {
  __shared__ float values[threads];
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  values[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int offset = 1; offset < threads; offset *= 2) {
    // BUG: reads and writes the same array with no barrier between the steps.
    if (threadIdx.x >= offset) values[threadIdx.x] += values[threadIdx.x - offset];
  }
  __syncthreads();
  if (i < n) out[i] = values[threadIdx.x];
  if (threadIdx.x == threads - 1) totals[blockIdx.x] = values[threadIdx.x];
}

__global__ void add_offsets(float* out, const float* totals, std::size_t blocks, std::size_t n) {
  // One block per data block adds the totals before it (a loop: slow, but not the bug).
  float before = 0.0f;
  for (std::size_t b = 0; b < blockIdx.x; ++b) before += totals[b];
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  if (i < n) out[i] += before;
  (void)blocks;
}

} // namespace

extern "C" void solve(const float* input, float* output, int N) {
  static float* totals = nullptr;
  static std::size_t capacity = 0;
  const std::size_t n = static_cast<std::size_t>(N);
  const std::size_t blocks = (n + threads - 1) / threads;
  if (blocks > capacity) {
    cudaFree(totals);
    cudaMalloc(&totals, blocks * sizeof(float));
    capacity = blocks;
  }
  scan_blocks_racy<<<static_cast<unsigned>(blocks), threads>>>(input, output, totals, n);
  if (blocks > 1 && blocks <= 4096) add_offsets<<<static_cast<unsigned>(blocks), threads>>>(output, totals, blocks, n);
  cudaDeviceSynchronize();
}
