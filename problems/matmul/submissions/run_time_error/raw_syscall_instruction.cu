// Hostile (work outside the process; same user, same view), by a third route: no library call at all.
// An inline `syscall` instruction asks the kernel for fork() directly, so no symbol of the learner's
// object names it and the import rules have nothing to refuse; the child would leave the runner's
// process group with a second `syscall` (setsid) and stay behind.
//
// Verdict: run-time error naming fork(). The runner installs its syscall filter before it loads the
// learner's object (harness/runner/syscall_filter.cpp), and the filter judges the call, not the
// instruction that makes it: fork is refused from the solution's own `syscall` as from libc's
// (run_time_error/fork_through_libc_instruction.cu). The runner reports the denied call on its result
// channel and exits, and the judge makes that an RTE ("solve() (or code it runs) called fork(), which
// the judge forbids: no new processes"). No child is ever made, so setsid is never reached.
#include <cuda_runtime.h>

#if !defined(__x86_64__)
#error "this fixture is written for x86-64"
#endif

__global__ void matmul_coalesced(const float* A, const float* B, float* C, int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= K) return;
  float sum = 0.0f;
  for (int p = 0; p < N; ++p) sum += A[row * N + p] * B[p * K + col];
  C[row * K + col] = sum;
}

namespace {
long raw_syscall0(long number) {
  long result;
  asm volatile("syscall" : "=a"(result) : "a"(number) : "rcx", "r11", "memory");
  return result;
}
constexpr long linux_fork = 57;
constexpr long linux_setsid = 112;
} // namespace

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  static const bool escaped = [] {
    if (raw_syscall0(linux_fork) == 0) {
      raw_syscall0(linux_setsid);
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
