// Ladder step 1: a tree in shared memory, one element per thread, and a pass per level of blocks.
//
// What it teaches: the shape of every parallel reduction. Each block of 256 threads loads 256 values
// into shared memory and halves them 8 times, thread t adding element t + s into element t; a
// __syncthreads() between the halvings makes every write of one level visible before the next level
// reads it (wrong_answer/missing_syncthreads.cu leaves it out). Each block leaves one partial sum; the
// same kernel then reduces the partials, N / 256, N / 65536, ... until one value is left, written to
// output[0]. Sequential addressing (t and t + s, s halving) keeps the active threads in whole warps and
// shared memory free of bank conflicts.
//
// Why it is slow: every element costs a thread, a shared-memory store and several barriers, and most of
// the threads sit idle after the first halving; the extra passes read and write the partials again.
//
// Verdict: accepted.
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int threads = 256;

__global__ void reduce_level(const float* in, float* out, std::size_t n) {
  __shared__ float values[threads];
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  values[threadIdx.x] = i < n ? in[i] : 0.0f; // the last block's missing elements add nothing
  __syncthreads();
  for (int s = threads / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) values[threadIdx.x] += values[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = values[0];
}

std::size_t blocks_for(std::size_t n) { return (n + threads - 1) / threads; }

} // namespace

extern "C" void solve(const float* input, float* output, int N) {
  // Two scratch arrays for the partial sums of alternate levels, kept between calls.
  static float* scratch[2] = {nullptr, nullptr};
  static std::size_t capacity = 0;
  const std::size_t n = static_cast<std::size_t>(N);
  const std::size_t first = blocks_for(n);
  if (first > capacity) {
    cudaFree(scratch[0]);
    cudaFree(scratch[1]);
    cudaMalloc(&scratch[0], first * sizeof(float));
    cudaMalloc(&scratch[1], first * sizeof(float));
    capacity = first;
  }
  const float* in = input;
  std::size_t count = n;
  int level = 0;
  while (count > 1) {
    const std::size_t blocks = blocks_for(count);
    float* out = blocks == 1 ? output : scratch[level % 2];
    reduce_level<<<static_cast<unsigned>(blocks), threads>>>(in, out, count);
    in = out;
    count = blocks;
    ++level;
  }
  // N == 1: the sum is the element itself.
  if (level == 0) cudaMemcpy(output, input, sizeof(float), cudaMemcpyDeviceToDevice);
  cudaDeviceSynchronize();
}
