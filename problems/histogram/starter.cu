// Histogram: histogram[b] = number of i with input[i] == b. The histogram arrives zeroed.
//
// This starter compiles and runs but counts nothing: the histogram stays zero and the judge answers
// Wrong Answer. Many threads will count into the same bin: think about what makes that safe.
// That verdict needs a GPU: on a machine without one the judge compiles the file and shows NR (not
// run); grade it on your class's server with `bin/judge submit`.
#include <cuda_runtime.h>

__global__ void histogram_kernel(const int* input, int* histogram, int N, int num_bins) {
  // TODO
}

// input and histogram are device pointers.
extern "C" void solve(const int* input, int* histogram, int N, int num_bins) {
  const int threads = 256;
  const int blocks = (N + threads - 1) / threads;
  histogram_kernel<<<blocks, threads>>>(input, histogram, N, num_bins);
  cudaDeviceSynchronize();
}
