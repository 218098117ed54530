// Ladder step 1: a bitonic sorting network, one kernel launch per compare-exchange stage.
//
// What it teaches: sorting without data-dependent control flow. A bitonic network sorts 2^k values in
// k(k+1)/2 stages; in each stage every element i is compared with its partner i ^ j and the pair is
// put in order, ascending or descending depending on bit k of i. Every stage is the same for any input,
// so every thread does the same work, and a stage needs only the previous one finished: one launch per
// stage is the barrier. N need not be a power of two: the data is copied into a scratch array padded to
// the next power of two with +infinity, which sorts to the end and is never copied back.
//
// Why it is slow: O(N log^2 N) work (300 stages for 2^24 values), each stage a full pass over global
// memory.
//
// Verdict: accepted.
#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>

namespace {

__global__ void pad_copy(const float* data, float* padded, std::size_t n, std::size_t size) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < size) padded[i] = i < n ? data[i] : INFINITY;
}

__global__ void bitonic_stage(float* values, std::size_t size, std::size_t k, std::size_t j) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t partner = i ^ j;
  if (i >= size || partner <= i) return; // each pair is handled by its lower element
  const bool ascending = (i & k) == 0;
  const float a = values[i], b = values[partner];
  if ((a > b) == ascending) {
    values[i] = b;
    values[partner] = a;
  }
}

__global__ void copy_back(const float* padded, float* data, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) data[i] = padded[i];
}

} // namespace

extern "C" void solve(float* data, int N) {
  static float* padded = nullptr;
  static std::size_t capacity = 0;
  const std::size_t n = static_cast<std::size_t>(N);
  std::size_t size = 1;
  while (size < n) size *= 2;
  if (size > capacity) {
    cudaFree(padded);
    cudaMalloc(&padded, size * sizeof(float));
    capacity = size;
  }
  const int threads = 256;
  const unsigned blocks = static_cast<unsigned>((size + threads - 1) / threads);
  pad_copy<<<blocks, threads>>>(data, padded, n, size);
  for (std::size_t k = 2; k <= size; k *= 2)
    for (std::size_t j = k / 2; j > 0; j /= 2) bitonic_stage<<<blocks, threads>>>(padded, size, k, j);
  copy_back<<<static_cast<unsigned>((n + threads - 1) / threads), threads>>>(padded, data, n);
  cudaDeviceSynchronize();
}
