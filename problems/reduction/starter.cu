// Reduction: output[0] = input[0] + ... + input[N-1].
//
// This starter compiles and runs but computes nothing: output[0] keeps the garbage it held before the
// call and the judge answers Wrong Answer. Fill in the kernel (and remember output starts as garbage).
// That verdict needs a GPU: on a machine without one the judge compiles the file and shows NR (not
// run); grade it on your class's server with `bin/judge submit`.
#include <cuda_runtime.h>

__global__ void reduction_kernel(const float* input, float* output, int N) {
  // TODO: add this block's share of input into output[0].
}

// input and output are device pointers.
extern "C" void solve(const float* input, float* output, int N) {
  const int threads = 256;
  const int blocks = (N + threads - 1) / threads;
  reduction_kernel<<<blocks, threads>>>(input, output, N);
  cudaDeviceSynchronize();
}
