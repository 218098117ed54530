// Accepted: matrix multiplication as public LeetGPU solutions write it.
//
// What it shows: LeetGPU's starter shape: a 16 × 16 block of threads, one thread per element of C
// (column from x, row from y, so a warp reads consecutive elements of B's row and writes consecutive
// elements of C), the inner dimension N walked in a loop, `int` indices throughout, and
// cudaDeviceSynchronize() at the end. It reads every A and B element from global memory (L1 and L2 catch
// the reuse), so it is far from cuBLAS, but it is right for every shape.
//
// Verdict: accepted. Within LeetGPU's limits (M, N, K <= 8192) the largest index, row * N + p or
// p * K + col, is below 8192 · 8192 = 2^26, well inside an int.
// Robustness: beyond those limits it would fail: once M·N, N·K or M·K passes 2^31 - 1 (for instance
// 65,536 × 65,536 matrices) the int products wrap and the kernel reads and writes outside the buffers.
// matmul has no case beyond the limits, so the judge never runs it there.
#include <cuda_runtime.h>

__global__ void matmul_one_output(const float* A, const float* B, float* C, int M, int N, int K) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < M && col < K) {
    float sum = 0.0f;
    for (int p = 0; p < N; ++p) sum += A[row * N + p] * B[p * K + col];
    C[row * K + col] = sum;
  }
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  dim3 threadsPerBlock(16, 16);
  dim3 blocksPerGrid((K + threadsPerBlock.x - 1) / threadsPerBlock.x, (M + threadsPerBlock.y - 1) / threadsPerBlock.y);
  matmul_one_output<<<blocksPerGrid, threadsPerBlock>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
