// Hostile (work outside the process; same user, same view), by a third route: no library call at all.
// An inline `syscall` instruction asks the kernel for fork() directly, so no symbol of the learner's
// object names it; the child leaves the runner's process group with a second `syscall` (setsid) and
// stays behind.
//
// Verdict: compile error. The learner's object may not contain system-call instructions (`syscall`,
// `sysenter`, `int $0x80`) anywhere in its executable bytes: the judge scans them before loading it
// (judge/compile/executable_bytes.cpp). Behind that, the syscall filter refuses fork and setsid whatever
// instruction asks for them (harness/runner/syscall_filter.cpp).
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
