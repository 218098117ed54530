// Hostile (hidden instructions), raw system calls without a system-call instruction in the listing: the
// two bytes of `syscall` (0f 05) are the low bytes of a `mov $0x9090050f, %ecx` immediate. A disassembly
// shows one harmless mov; a jump to the mov's second byte runs syscall, nop, nop and falls back into the
// code. Here it asks for getpid; the same trick reaches any call the import rules refuse by name.
//
// Verdict: accepted, with an honest time. Hiding the instruction gains nothing: the runner's syscall
// filter (harness/runner/syscall_filter.cpp) judges every system call whatever instruction makes it,
// and getpid is a call it allows, harmless in the recording runner, which holds no clock and no check
// of a timed output. The same trick with a call the filter denies is a run-time error naming it
// (run_time_error/raw_syscall_instruction.cu). The compile does not look at code bytes: honest
// constants hold the same bytes (accepted/syscall_bytes_in_constants.cu).
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
long hidden_getpid() {
  long result;
  asm volatile("  leaq 1f+1(%%rip), %%rdx\n" // the immediate's first byte
               "  movl $39, %%eax\n"          // getpid
               "  jmp *%%rdx\n"
               "1: movl $0x9090050f, %%ecx\n" // b9 0f 05 90 90: syscall; nop; nop
               : "=a"(result)
               :
               : "rcx", "rdx", "r11", "memory");
  return result;
}
} // namespace

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  static const long pid = hidden_getpid();
  (void)pid;
  const dim3 block(32, 8);
  const dim3 grid((K + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  matmul_coalesced<<<grid, block>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
