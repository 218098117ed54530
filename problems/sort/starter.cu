// Sorting: sort data[0 .. N) ascending, in place.
//
// This starter compiles and runs but sorts nothing: data keeps its order and the judge answers Wrong
// Answer (unless the input happens to be sorted already).
// That verdict needs a GPU: on a machine without one the judge compiles the file and shows NR (not
// run); grade it on your class's server with `bin/judge submit`.
#include <cuda_runtime.h>

__global__ void sort_kernel(float* data, int N) {
  // TODO
}

// data is a device pointer.
extern "C" void solve(float* data, int N) {
  const int threads = 256;
  const int blocks = (N + threads - 1) / threads;
  sort_kernel<<<blocks, threads>>>(data, N);
  cudaDeviceSynchronize();
}
