// Accepted: vector addition as public LeetGPU solutions write it.
//
// What it shows: the shape of LeetGPU's own starter and of most solutions posted for it: one thread per
// element, an `int` index blockIdx.x * blockDim.x + threadIdx.x, a grid of (N + 255) / 256 blocks of
// 256 threads, and cudaDeviceSynchronize() before returning. The judge compiles it with LeetGPU's nvcc
// options (docs/problem-format.md, "How solutions are compiled"), so it runs here unchanged.
//
// Verdict: accepted. Every case lies within LeetGPU's limits (N <= 100,000,000), where an int holds
// every index and N + 255.
// Robustness: beyond those limits it would fail: for N above 2^31 - 256, N + 255 overflows an int, the
// grid size is negative and the launch fails. vector_add has no case beyond the limits, so the judge
// never runs it there.
#include <cuda_runtime.h>

__global__ void add_elements(const float* A, const float* B, float* C, int N) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  int threadsPerBlock = 256;
  int blocksPerGrid = (N + threadsPerBlock - 1) / threadsPerBlock;
  add_elements<<<blocksPerGrid, threadsPerBlock>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
