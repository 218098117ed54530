// Accepted: a histogram as public LeetGPU solutions write it.
//
// What it shows: one thread per element, an `int` index, a grid of (N + 255) / 256 blocks of 256
// threads, and one atomicAdd per element straight into the histogram, which the problem hands over
// zeroed (LeetGPU's contract, kept here). cudaDeviceSynchronize() at the end. Every count is an int
// atomic, so it is exact however many values land in one bin; it is slow when they do, because the
// atomics on one address are serialised (ladder step 2 privatises them in shared memory).
//
// Verdict: accepted. Within LeetGPU's limits (N <= 100,000,000) an int holds every index and N + 255.
// Robustness: on n_int_max (N = 2^31 - 1, beyond LeetGPU's limit) N + 255 overflows an int, the grid
// size is negative, the launch fails and every bin stays 0: a wrong answer on that robustness case,
// which does not change the verdict.
#include <cuda_runtime.h>

__global__ void count_elements(const int* input, int* histogram, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) atomicAdd(&histogram[input[i]], 1);
}

extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
  int threadsPerBlock = 256;
  int blocksPerGrid = (N + threadsPerBlock - 1) / threadsPerBlock;
  count_elements<<<blocksPerGrid, threadsPerBlock>>>(input, histogram, N);
  cudaDeviceSynchronize();
}
