// Run-time error: step 1 with its padded scratch array allocated in elements instead of bytes.
//
// What it teaches: cudaMalloc takes bytes. `cudaMalloc(&padded, size)` gives a quarter of the floats
// the network then reads and writes; the first stage runs 3 · size · 4 bytes past the allocation and
// stops with an illegal memory access once N is large enough to leave the allocator's slack.
//
// Verdict: run-time error (an illegal memory access), on the large cases.
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
  if (i >= size || partner <= i) return;
  const float a = values[i], b = values[partner];
  if ((a > b) == ((i & k) == 0)) {
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
  const std::size_t n = static_cast<std::size_t>(N);
  std::size_t size = 1;
  while (size < n) size *= 2;
  float* padded = nullptr;
  cudaMalloc(&padded, size); // BUG: size floats need size * sizeof(float) bytes
  const unsigned blocks = static_cast<unsigned>((size + 255) / 256);
  pad_copy<<<blocks, 256>>>(data, padded, n, size);
  for (std::size_t k = 2; k <= size; k *= 2)
    for (std::size_t j = k / 2; j > 0; j /= 2) bitonic_stage<<<blocks, 256>>>(padded, size, k, j);
  copy_back<<<static_cast<unsigned>((n + 255) / 256), 256>>>(padded, data, n);
  cudaDeviceSynchronize();
  cudaFree(padded);
}
