// Hostile, same user, same view: takes nearly all of the GPU's free memory on its
// first call and never gives it back, so that a solution graded after it (or a process it left behind)
// would find the GPU full. It computes correctly.
//
// Verdict: accepted, with an honest time, and the next solution is unaffected. Holding memory within
// its own grading is allowed (it is the learner's run that pays for it); at the end of the grading the
// runner and everything in its PID namespace and cgroup are gone (judge/sandbox/), and the driver frees a
// process's device memory when it ends. A margin is left so that the harness can still allocate each
// case's buffers.
#include <cuda_runtime.h>
#include <algorithm>
#include <cstddef>

__global__ void matmul_coalesced(const float* A, const float* B, float* C, int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= K) return;
  float sum = 0.0f;
  for (int p = 0; p < N; ++p) sum += A[row * N + p] * B[p * K + col];
  C[row * K + col] = sum;
}

namespace {
void* hoard_nearly_everything() {
  std::size_t free_bytes = 0, total = 0;
  if (cudaMemGetInfo(&free_bytes, &total) != cudaSuccess) return nullptr;
  const std::size_t margin = std::max<std::size_t>(total / 16, std::size_t(4) << 30);
  if (free_bytes <= margin) return nullptr;
  void* hoard = nullptr;
  if (cudaMalloc(&hoard, free_bytes - margin) != cudaSuccess) return nullptr;
  cudaMemset(hoard, 0xA5, free_bytes - margin); // touch it, so the pages are really taken
  return hoard;
}
} // namespace

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  static void* const hoard = hoard_nearly_everything(); // never freed
  (void)hoard;
  const dim3 block(32, 8);
  const dim3 grid((K + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  matmul_coalesced<<<grid, block>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
