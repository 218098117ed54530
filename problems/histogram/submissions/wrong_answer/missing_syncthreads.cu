// Wrong answer: step 2's private histograms without their two barriers.
//
// What it teaches: shared memory is shared by warps that run in no fixed order. Without a barrier after
// zeroing, a fast warp counts into a bin that a slow warp then clears; without one before the flush, a
// warp adds a bin to the global histogram while other warps are still counting into it. Both lose
// counts, differently from run to run.
//
// Verdict: wrong answer, on the larger cases (it is a race: which bins are off varies).
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int threads = 512;

__global__ void histogram_shared_racy(const int* __restrict__ input, int* histogram, std::size_t n, int bins) {
  extern __shared__ int private_bins[];
  for (int b = threadIdx.x; b < bins; b += threads) private_bins[b] = 0;
  // BUG: no __syncthreads() here ...
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * threads;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x; i < n; i += stride)
    atomicAdd(&private_bins[input[i]], 1);
  // ... nor here.
  for (int b = threadIdx.x; b < bins; b += threads)
    if (private_bins[b] != 0) atomicAdd(&histogram[b], private_bins[b]);
}

} // namespace

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
  histogram_shared_racy<<<528, threads, num_bins * sizeof(int)>>>(input, histogram, static_cast<std::size_t>(N),
                                                                  num_bins);
  cudaDeviceSynchronize();
}
