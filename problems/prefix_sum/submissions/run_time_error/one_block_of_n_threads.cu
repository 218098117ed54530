// Run-time error: the whole scan in one block of N threads.
//
// What it teaches: a block has at most 1024 threads. A launch with more is not an error in the code's
// eyes (it compiles), but the launch fails with cudaErrorInvalidConfiguration ("invalid configuration
// argument") and the kernel never runs. Checking cudaGetLastError() after a launch shows it; the judge
// reports it as a run-time error. It works for N <= 1024, which is where a first test stops.
//
// Verdict: run-time error, on every case with N > 1024.
#include <cuda_runtime.h>

__global__ void scan_one_block(const float* input, float* output, int n) {
  extern __shared__ float values[];
  const int i = threadIdx.x;
  values[i] = input[i];
  __syncthreads();
  for (int offset = 1; offset < n; offset *= 2) {
    const float v = i >= offset ? values[i - offset] : 0.0f;
    __syncthreads();
    values[i] += v;
    __syncthreads();
  }
  output[i] = values[i];
}

extern "C" void solve(const float* input, float* output, int N) {
  // BUG: N threads in one block; above 1024 the launch is refused.
  scan_one_block<<<1, N, N * sizeof(float)>>>(input, output, N);
  cudaDeviceSynchronize();
}
