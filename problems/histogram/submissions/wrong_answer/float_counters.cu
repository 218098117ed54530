// Wrong answer: counts kept in float stop growing at 2^24.
//
// What it teaches: a float holds every whole number only up to 2^24 = 16,777,216; above it, adding 1
// rounds back to the same value. This solution counts with float atomicAdd into a scratch histogram
// (BUG: the counters are floats), then converts the counts to int. Every bin of every case before the
// large one-bin ones held at most 2^24 values (one_hot_2pow24 puts exactly 2^24 in one bin, which a float
// still reaches), so it passed them all. one_bin_20000000 puts 20,000,000 values in one bin: the float
// stops at 16,777,216.
//
// Verdict: wrong answer, on one_bin_20000000 and one_bin_100000000.
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int threads = 256;

__global__ void clear(float* counts, int bins) {
  for (int b = threadIdx.x; b < bins; b += blockDim.x) counts[b] = 0.0f;
}

__global__ void count(const int* input, std::size_t n, float* counts) {
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * threads)
    atomicAdd(&counts[input[i]], 1.0f); // BUG: a float counter cannot pass 2^24
}

__global__ void to_int(const float* counts, int* histogram, int bins) {
  for (int b = threadIdx.x; b < bins; b += blockDim.x) histogram[b] = static_cast<int>(counts[b]);
}

} // namespace

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
  static float* counts = nullptr;
  if (counts == nullptr) cudaMalloc(&counts, 1024 * sizeof(float));
  clear<<<1, 1024>>>(counts, num_bins);
  count<<<1024, threads>>>(input, static_cast<std::size_t>(N), counts);
  to_int<<<1, 1024>>>(counts, histogram, num_bins);
  cudaDeviceSynchronize();
}
