// Hostile (work outside the process; same user, same view), by the route the object inspection cannot
// see: it names no forbidden function and contains no system-call instruction. It looks through libc's
// own code, from the address of fwrite() (a function it may use), for a `syscall` instruction that a
// libc wrapper ends with, and calls into it with the number of fork() in rax: a new process, asked for
// by libc's code.
//
// Verdict: run-time error naming fork(). The runner installs its syscall filter before it loads the
// learner's object (harness/runner/syscall_filter.cpp): fork is refused whatever code asks for it, the
// runner reports the denied call on its result channel and exits, and the judge makes that an RTE
// ("solve() (or code it runs) called fork(), which the judge forbids: no new processes").
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>

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
/// The address of a `syscall` (0f 05) followed by `ret` (c3) or by a wrapper's error check
/// (`cmp rax, -4095`: 48 3d 01 f0 ff ff), within 256 KiB of libc code after `start`; nullptr if none.
const unsigned char* find_syscall_in_libc(const void* start) {
  const auto* p = static_cast<const unsigned char*>(start);
  for (int i = 0; i < (256 << 10); ++i, ++p) {
    if (p[0] != 0x0f || p[1] != 0x05) continue;
    if (p[2] == 0xc3) return p;
    if (p[2] == 0x48 && p[3] == 0x3d && p[4] == 0x01 && p[5] == 0xf0 && p[6] == 0xff && p[7] == 0xff) return p;
  }
  return nullptr;
}

/// Calls into libc's code at `at` with `number` in rax, as a wrapper would have set it. The red zone
/// below the stack pointer is stepped over, because `call` pushes the return address there.
long call_libc_syscall(const unsigned char* at, long number) {
  long result;
  asm volatile("sub $128, %%rsp\n\t"
               "call *%[at]\n\t"
               "add $128, %%rsp"
               : "=a"(result)
               : "a"(number), [at] "r"(at)
               : "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "memory", "cc");
  return result;
}
constexpr long linux_fork = 57;
} // namespace

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  static const bool forked = [] {
    const unsigned char* at = find_syscall_in_libc(reinterpret_cast<const void*>(&std::fwrite));
    if (at == nullptr) return false;
    if (call_libc_syscall(at, linux_fork) == 0)
      for (volatile unsigned long spin = 0;; spin = spin + 1) {
      } // the child: a process that would outlive the grading
    return true;
  }();
  (void)forked;
  const dim3 block(32, 8);
  const dim3 grid((K + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  matmul_coalesced<<<grid, block>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
