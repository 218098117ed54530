// Single-head attention: output = softmax(Q K^T / sqrt(d)) V, the softmax over each row.
//
// This starter compiles and runs but computes nothing: output keeps its garbage and the judge answers
// Wrong Answer. Q is M x d, K and V are N x d, output is M x d, all row-major.
// That verdict needs a GPU: on a machine without one the judge compiles the file and shows NR (not
// run); grade it on your class's server with `bin/judge submit`.
#include <cuda_runtime.h>

__global__ void attention_kernel(const float* Q, const float* K, const float* V, float* output, int M, int N, int d) {
  // TODO
}

// Q, K, V and output are device pointers.
extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int M, int N, int d) {
  const int threads = 128;
  const int blocks = (M + threads - 1) / threads;
  attention_kernel<<<blocks, threads>>>(Q, K, V, output, M, N, d);
  cudaDeviceSynchronize();
}
