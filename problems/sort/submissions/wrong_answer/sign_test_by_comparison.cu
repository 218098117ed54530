// Wrong answer: -0.0 becomes a NaN at the front, because the key transform tests the sign with `x < 0`.
//
// What it teaches: the order-preserving map from floats to unsigned keys must read the sign bit. The
// usual map flips every bit of a negative float and only the sign bit of a non-negative one; this
// solution chooses between the two with the float comparison x < 0.0f (BUG), which is false for -0.0.
// -0.0 (bits 0x80000000) then gets the key 0x80000000 ^ 0x80000000 = 0, below every other key, and the
// inverse map, which reads the key's top bit, turns key 0 into the bits 0xffffffff: a NaN, sorted
// first. The keys are sorted with a bitonic network padded with the largest key. No case before the
// special ones held a -0.0 (their zeros, where there are any, are +0.0), so it passed them all.
// special_1000000 and special_999999 have about 2.5% of -0.0 among their values.
//
// Verdict: wrong answer, on special_1000000 and special_999999.
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int threads = 256;

__global__ void to_keys(const float* data, unsigned int* keys, std::size_t n, std::size_t size) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  if (i >= size) return;
  if (i >= n) {
    keys[i] = 0xffffffffu; // padding: above every key, sorted to the end
    return;
  }
  const float x = data[i];
  const unsigned int bits = __float_as_uint(x);
  keys[i] = bits ^ (x < 0.0f ? 0xffffffffu : 0x80000000u); // BUG: -0.0 is not < 0 but has its sign bit set
}

__global__ void bitonic_step(unsigned int* keys, std::size_t j, std::size_t k) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  const std::size_t partner = i ^ j;
  if (partner <= i) return;
  const bool ascending = (i & k) == 0;
  const unsigned int a = keys[i], b = keys[partner];
  if ((a > b) == ascending) {
    keys[i] = b;
    keys[partner] = a;
  }
}

__global__ void from_keys(const unsigned int* keys, float* data, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  if (i >= n) return;
  const unsigned int key = keys[i];
  data[i] = __uint_as_float(key & 0x80000000u ? key ^ 0x80000000u : ~key);
}

} // namespace

extern "C" void solve(float* data, int N) {
  static unsigned int* keys = nullptr;
  static std::size_t capacity = 0;
  const std::size_t n = static_cast<std::size_t>(N);
  std::size_t size = threads;
  while (size < n) size *= 2;
  if (size > capacity) {
    cudaFree(keys);
    cudaMalloc(&keys, size * sizeof(unsigned int));
    capacity = size;
  }
  const unsigned int blocks = static_cast<unsigned int>(size / threads);
  to_keys<<<blocks, threads>>>(data, keys, n, size);
  for (std::size_t k = 2; k <= size; k *= 2)
    for (std::size_t j = k / 2; j > 0; j /= 2) bitonic_step<<<blocks, threads>>>(keys, j, k);
  from_keys<<<blocks, threads>>>(keys, data, n);
  cudaDeviceSynchronize();
}
