// Prefix sum: output[i] = input[0] + ... + input[i].
//
// This starter compiles and runs but computes nothing: output keeps its garbage and the judge answers
// Wrong Answer. A scan needs values from other blocks: start with one block's scan, then combine.
// That verdict needs a GPU: on a machine without one the judge compiles the file and shows NR (not
// run); grade it on your class's server with `bin/judge submit`.
#include <cuda_runtime.h>

__global__ void prefix_sum_kernel(const float* input, float* output, int N) {
  // TODO
}

// input and output are device pointers.
extern "C" void solve(const float* input, float* output, int N) {
  const int threads = 256;
  const int blocks = (N + threads - 1) / threads;
  prefix_sum_kernel<<<blocks, threads>>>(input, output, N);
  cudaDeviceSynchronize();
}
