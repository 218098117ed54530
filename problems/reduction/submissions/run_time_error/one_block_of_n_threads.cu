// Run-time error: the whole sum in one block of N threads.
//
// What it teaches: a block has at most 1024 threads. A launch with more compiles, but it fails with
// cudaErrorInvalidConfiguration ("invalid configuration argument") and the kernel never runs; checking
// cudaGetLastError() after the launch shows it, and the judge reports it as a run-time error. The tree
// below is right for every N up to 1024, which is where a first test usually stops.
//
// Verdict: run-time error, on every case with N > 1024.
#include <cuda_runtime.h>

__global__ void sum_one_block(const float* input, float* output, int n) {
  extern __shared__ float values[];
  const int i = threadIdx.x;
  values[i] = input[i];
  __syncthreads();
  for (int half = 1; half < n; half *= 2) {
    if (i % (2 * half) == 0 && i + half < n) values[i] += values[i + half];
    __syncthreads();
  }
  if (i == 0) *output = values[0];
}

extern "C" void solve(const float* input, float* output, int N) {
  // BUG: N threads in one block; above 1024 the launch is refused.
  sum_one_block<<<1, N, N * sizeof(float)>>>(input, output, N);
  cudaDeviceSynchronize();
}
