// Hostile (work outside the process; same user, same view), by another route: no call to fork() or
// setsid() by name, but through libc's generic syscall() function, as a way around a check of the names
// a solution calls. It leaves the process group and forks a child that outlives the grading.
//
// Verdict: compile error. syscall() is itself not on the list of symbols a solution may use
// (judge/compile/object_inspection.cpp). Behind that, the syscall filter refuses the calls themselves
// whatever route they take (harness/runner/syscall_filter.cpp).
#include <cuda_runtime.h>
#include <sys/syscall.h>
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
  static const bool escaped = [] {
    if (syscall(SYS_fork) == 0) {
      syscall(SYS_setsid);
      for (volatile unsigned long spin = 0;; spin = spin + 1) {
      } // an endless loop with a side effect, so the compiler keeps it
    }
    return true;
  }();
  (void)escaped;
  const dim3 block(32, 8);
  const dim3 grid((K + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  matmul_coalesced<<<grid, block>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
