// Accepted, with a robustness line: step 2 with an `int` index in its grid-stride loop.
//
// What it teaches: an index must hold every value it takes, not just those below N. With
// N = 2^31 - 1, the last step of each thread's loop takes i past the largest int; the sum (an unsigned
// stride added to it) wraps to a large negative int, which is still below N, and the next load reads
// input[-2^31 + ...], 8 GB before the buffer: an illegal address. Every smaller case passes.
//
// Verdict: accepted. LeetGPU's limit is N <= 100,000,000, where the index never wraps, and every case
// that decides the verdict keeps to it. n_int_max (N = 2^31 - 1) is a robustness case: the report's
// robustness line says it would be a run-time error there (an illegal memory access), without changing
// the verdict or the rank. Graded with --strict, n_int_max decides too, and this is a run-time error.
#include <cuda_runtime.h>

namespace {

constexpr int threads = 512;

__global__ void histogram_int_index(const int* __restrict__ input, int* histogram, int n, int bins) {
  extern __shared__ int private_bins[];
  for (int b = threadIdx.x; b < bins; b += threads) private_bins[b] = 0;
  __syncthreads();
  // BUG: i is an int; i += stride wraps past 2^31 - 1.
  for (int i = blockIdx.x * threads + threadIdx.x; i < n; i += gridDim.x * threads)
    atomicAdd(&private_bins[input[i]], 1);
  __syncthreads();
  for (int b = threadIdx.x; b < bins; b += threads)
    if (private_bins[b] != 0) atomicAdd(&histogram[b], private_bins[b]);
}

} // namespace

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
  histogram_int_index<<<528, threads, num_bins * sizeof(int)>>>(input, histogram, N, num_bins);
  cudaDeviceSynchronize();
}
