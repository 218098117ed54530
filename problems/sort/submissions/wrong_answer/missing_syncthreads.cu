// Wrong answer: step 2's shared-memory bitonic stages without the barrier between them.
//
// What it teaches: each stage of a sorting network reads what the previous stage wrote, often in
// another warp. Without __syncthreads() a warp compares values that the previous stage has not yet put
// in order, and some pairs end up swapped wrongly or not at all.
//
// Verdict: wrong answer, on the cases larger than one warp's pairs (it is a race: which cases fail can
// vary).
#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>

namespace {

constexpr int tile = 2048;
constexpr int threads = tile / 2;

__global__ void bitonic_tile_racy(float* values, std::size_t k_first, std::size_t k_last, std::size_t j_first) {
  __shared__ float s[tile];
  const std::size_t base = static_cast<std::size_t>(blockIdx.x) * tile;
  s[threadIdx.x] = values[base + threadIdx.x];
  s[threadIdx.x + threads] = values[base + threadIdx.x + threads];
  __syncthreads();
  for (std::size_t k = k_first; k <= k_last; k *= 2)
    for (std::size_t j = k == k_first ? j_first : k / 2; j > 0; j /= 2) {
      const unsigned t = threadIdx.x;
      const unsigned i = 2 * static_cast<unsigned>(j) * (t / static_cast<unsigned>(j)) + t % static_cast<unsigned>(j);
      const bool ascending = ((base + i) & k) == 0;
      const float a = s[i], b = s[i + j];
      if ((a > b) == ascending) {
        s[i] = b;
        s[i + j] = a;
      }
      // BUG: no __syncthreads() before the next stage
    }
  __syncthreads();
  values[base + threadIdx.x] = s[threadIdx.x];
  values[base + threadIdx.x + threads] = s[threadIdx.x + threads];
}

__global__ void pad_copy(const float* data, float* padded, std::size_t n, std::size_t size) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * 256 + threadIdx.x;
  if (i < size) padded[i] = i < n ? data[i] : INFINITY;
}

__global__ void global_stage(float* values, std::size_t size, std::size_t k, std::size_t j) {
  const std::size_t p = static_cast<std::size_t>(blockIdx.x) * 256 + threadIdx.x;
  if (p >= size / 2) return;
  const std::size_t i = 2 * j * (p / j) + p % j;
  const float a = values[i], b = values[i + j];
  if ((a > b) == ((i & k) == 0)) {
    values[i] = b;
    values[i + j] = a;
  }
}

__global__ void copy_back(const float* padded, float* data, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * 256 + threadIdx.x;
  if (i < n) data[i] = padded[i];
}

} // namespace

extern "C" void solve(float* data, int N) {
  static float* padded = nullptr;
  static std::size_t capacity = 0;
  const std::size_t n = static_cast<std::size_t>(N);
  std::size_t size = tile;
  while (size < n) size *= 2;
  if (size > capacity) {
    cudaFree(padded);
    cudaMalloc(&padded, size * sizeof(float));
    capacity = size;
  }
  const unsigned tiles = static_cast<unsigned>(size / tile);
  pad_copy<<<static_cast<unsigned>((size + 255) / 256), 256>>>(data, padded, n, size);
  bitonic_tile_racy<<<tiles, threads>>>(padded, 2, tile, 1);
  for (std::size_t k = 2 * tile; k <= size; k *= 2) {
    for (std::size_t j = k / 2; j >= static_cast<std::size_t>(tile); j /= 2)
      global_stage<<<static_cast<unsigned>((size / 2 + 255) / 256), 256>>>(padded, size, k, j);
    bitonic_tile_racy<<<tiles, threads>>>(padded, k, k, tile / 2);
  }
  copy_back<<<static_cast<unsigned>((n + 255) / 256), 256>>>(padded, data, n);
  cudaDeviceSynchronize();
}
