// Hostile, same user, same view: sends SIGINT to the runner's parent, the judge,
// which then stops grading as if its user had pressed Ctrl-C (and records nothing for the solutions
// after this one).
//
// Verdict: compile error. kill() and getppid() are not on the list of symbols a solution may use
// (judge/compile/object_inspection.cpp). Behind that, the syscall filter refuses signals to any process but
// the runner itself (harness/runner/syscall_filter.cpp), and in its own PID namespace the runner's parent
// is not even visible (getppid() returns 0).
#include <cuda_runtime.h>
#include <signal.h>
#include <unistd.h>

__global__ void matmul_coalesced(const float* A, const float* B, float* C, int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= K) return;
  float sum = 0.0f;
  for (int p = 0; p < N; ++p) sum += A[row * N + p] * B[p * K + col];
  C[row * K + col] = sum;
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  const dim3 block(32, 8);
  const dim3 grid((K + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  matmul_coalesced<<<grid, block>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
  kill(getppid(), SIGINT);
}
