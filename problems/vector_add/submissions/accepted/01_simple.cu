// Ladder step 1: one thread per element.
//
// What it teaches: the shape of every CUDA program. The grid is rounded up to whole blocks of 256
// threads, so the last block has threads past the end of the vectors: the `i < N` guard keeps them from
// reading or writing outside the buffers. Consecutive threads touch consecutive floats, so every warp
// access is one coalesced 128-byte transaction.
//
// Verdict: accepted.
#include <cuda_runtime.h>

__global__ void vector_add_simple(const float* A, const float* B, float* C, int N) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  const int threads = 256;
  const int blocks = (N + threads - 1) / threads;
  vector_add_simple<<<blocks, threads>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
