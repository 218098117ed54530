// Softmax: output[i] = exp(input[i] - max) / sum_j exp(input[j] - max).
//
// This starter compiles and runs but computes nothing: output keeps its garbage and the judge answers
// Wrong Answer. The maximum and the sum are over the whole array, across all blocks.
// That verdict needs a GPU: on a machine without one the judge compiles the file and shows NR (not
// run); grade it on your class's server with `bin/judge submit`.
#include <cuda_runtime.h>

__global__ void softmax_kernel(const float* input, float* output, int N) {
  // TODO
}

// input and output are device pointers.
extern "C" void solve(const float* input, float* output, int N) {
  const int threads = 256;
  const int blocks = (N + threads - 1) / threads;
  softmax_kernel<<<blocks, threads>>>(input, output, N);
  cudaDeviceSynchronize();
}
