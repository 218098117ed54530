// Wrong answer: step 3's int4 loop without the N % 4 values that do not fill an int4.
//
// What it teaches: the remainder of a vectorised loop is data too. Up to three values go uncounted: the
// histogram is short by one to three, which an exact comparison always sees.
//
// Verdict: wrong answer, on every case whose N is not a multiple of 4 (sample_5 among them).
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int threads = 512;

__global__ void histogram_int4_only(const int* __restrict__ input, int* histogram, std::size_t n, int bins) {
  extern __shared__ int private_bins[];
  for (int b = threadIdx.x; b < bins; b += threads) private_bins[b] = 0;
  __syncthreads();
  const std::size_t groups = n / 4; // BUG: the last n % 4 values are never counted
  const auto* input4 = reinterpret_cast<const int4*>(input);
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * threads;
  for (std::size_t g = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x; g < groups; g += stride) {
    const int4 v = input4[g];
    atomicAdd(&private_bins[v.x], 1);
    atomicAdd(&private_bins[v.y], 1);
    atomicAdd(&private_bins[v.z], 1);
    atomicAdd(&private_bins[v.w], 1);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < bins; b += threads)
    if (private_bins[b] != 0) atomicAdd(&histogram[b], private_bins[b]);
}

} // namespace

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
  histogram_int4_only<<<264, threads, num_bins * sizeof(int)>>>(input, histogram, static_cast<std::size_t>(N),
                                                                num_bins);
  cudaDeviceSynchronize();
}
