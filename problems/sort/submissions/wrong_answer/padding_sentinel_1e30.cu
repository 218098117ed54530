// Wrong answer: the padding value 1e30 sorts before the largest inputs and takes their places.
//
// What it teaches: a sentinel must be above every value the data can hold. This is the bitonic sort of
// ladder step 1, but it pads the scratch array to a power of two with 1.0e30f instead of +infinity
// (BUG), on the belief that no input is that large. Floats go up to 3.4e38: inputs above 1e30 sort after
// the padding, and the first N elements copied back hold padding in their place. Every case before the
// special ones stayed within ±30,000, so it passed them all. special_999999 and special_1000000 (neither
// a power of two) hold about 2.5% of positive values from 6.3e29 to 3.4e38, nearly all above 1e30.
//
// Verdict: wrong answer, on special_999999 and special_1000000.
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int threads = 256;
constexpr float sentinel = 1.0e30f; // BUG: not above every float

__global__ void pad_copy(const float* data, float* padded, std::size_t n, std::size_t size) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  if (i < size) padded[i] = i < n ? data[i] : sentinel;
}

__global__ void bitonic_step(float* padded, std::size_t j, std::size_t k) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  const std::size_t partner = i ^ j;
  if (partner <= i) return;
  const bool ascending = (i & k) == 0;
  const float a = padded[i], b = padded[partner];
  if ((a > b) == ascending) {
    padded[i] = b;
    padded[partner] = a;
  }
}

__global__ void copy_back(const float* padded, float* data, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  if (i < n) data[i] = padded[i];
}

} // namespace

extern "C" void solve(float* data, int N) {
  static float* padded = nullptr;
  static std::size_t capacity = 0;
  const std::size_t n = static_cast<std::size_t>(N);
  std::size_t size = threads;
  while (size < n) size *= 2;
  if (size > capacity) {
    cudaFree(padded);
    cudaMalloc(&padded, size * sizeof(float));
    capacity = size;
  }
  const unsigned int blocks = static_cast<unsigned int>(size / threads);
  pad_copy<<<blocks, threads>>>(data, padded, n, size);
  for (std::size_t k = 2; k <= size; k *= 2)
    for (std::size_t j = k / 2; j > 0; j /= 2) bitonic_step<<<blocks, threads>>>(padded, j, k);
  copy_back<<<blocks, threads>>>(padded, data, n);
  cudaDeviceSynchronize();
}
