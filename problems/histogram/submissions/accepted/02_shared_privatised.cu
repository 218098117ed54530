// Ladder step 2: privatisation: each block counts into its own histogram in shared memory.
//
// What it teaches: move contention to where it is cheap. A block zeroes a private copy of the bins in
// shared memory, walks its share of the input (a grid-stride loop over a grid that just fills the GPU),
// counts with shared-memory atomics (handled in the SM, far faster than L2 atomics), and at the end adds
// each non-zero private bin into the global histogram once. Global atomics drop from N to at most
// blocks × num_bins. Two barriers are essential: after zeroing (no thread may count into a bin not yet
// cleared) and before the flush (no thread may read a bin still being counted into);
// wrong_answer/missing_syncthreads.cu drops them.
//
// What is left: within a block, threads of the same warp that hit the same bin still serialise on the
// shared atomic, which is what the one_hot cases measure.
//
// Verdict: accepted.
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int threads = 512;

__global__ void histogram_shared(const int* __restrict__ input, int* histogram, std::size_t n, int bins) {
  extern __shared__ int private_bins[];
  for (int b = threadIdx.x; b < bins; b += threads) private_bins[b] = 0;
  __syncthreads();
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * threads;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x; i < n; i += stride)
    atomicAdd(&private_bins[input[i]], 1);
  __syncthreads();
  for (int b = threadIdx.x; b < bins; b += threads)
    if (private_bins[b] != 0) atomicAdd(&histogram[b], private_bins[b]);
}

} // namespace

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
  static int blocks = 0;
  if (blocks == 0) {
    int device = 0, sms = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    blocks = sms * 4; // 4 blocks of 512 threads per SM
  }
  histogram_shared<<<blocks, threads, num_bins * sizeof(int)>>>(input, histogram, static_cast<std::size_t>(N),
                                                                num_bins);
  cudaDeviceSynchronize();
}
