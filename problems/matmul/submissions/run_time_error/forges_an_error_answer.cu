// Hostile: computes a wrong answer and, before the judge can compare it, writes an "error" answer on
// the runner's result channel, as the runner itself does when the judge's own work fails. A judge that
// believed it would call the case an internal error ("the judge's fault, not yours") instead of a wrong
// answer, and a learner could hide any failure that way. Like forges_timing_on_the_channel.cu, it calls
// write(2) through libc's own `syscall` instruction on every pipe above stderr.
//
// Verdict: run-time error. A failure is the judge's only on the judge's own evidence: whatever a process
// that ran learner code says about itself ("error" answers, answers out of step, lines that are not
// answers) is that process's failure (grading/verdict.cpp, request_facts::learner_host_code).
#include <cuda_runtime.h>
#include <cstdio>
#include <cstring>

#if !defined(__x86_64__)
#error "this fixture is written for x86-64"
#endif

__global__ void matmul_coalesced(const float* A, const float* B, float* C, int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= K) return;
  float sum = 0.0f;
  for (int p = 0; p < N; ++p) sum += A[row * N + p] * B[p * K + col];
  C[row * K + col] = sum + 1.0f; // wrong on purpose
}

namespace {
/// A `syscall` (0f 05) followed by `ret` or a wrapper's error check, in libc's code after `start`.
const unsigned char* find_syscall_in_libc(const void* start) {
  const auto* p = static_cast<const unsigned char*>(start);
  for (int i = 0; i < (256 << 10); ++i, ++p) {
    if (p[0] != 0x0f || p[1] != 0x05) continue;
    if (p[2] == 0xc3) return p;
    if (p[2] == 0x48 && p[3] == 0x3d && p[4] == 0x01 && p[5] == 0xf0 && p[6] == 0xff && p[7] == 0xff) return p;
  }
  return nullptr;
}

/// System call `number` with three arguments, made by libc's instruction at `at`.
long raw_call(const unsigned char* at, long number, long a, long b, long c) {
  long result;
  register long rdi asm("rdi") = a;
  register long rsi asm("rsi") = b;
  register long rdx asm("rdx") = c;
  asm volatile("sub $128, %%rsp\n\t"
               "call *%[at]\n\t"
               "add $128, %%rsp"
               : "=a"(result), "+r"(rdi), "+r"(rsi), "+r"(rdx)
               : "a"(number), [at] "r"(at)
               : "rcx", "r8", "r9", "r10", "r11", "memory", "cc");
  return result;
}
constexpr long linux_write = 1;
constexpr long linux_fstat = 5;
constexpr unsigned fifo_type = 0010000; // S_IFIFO

void forge(const char* line) {
  const unsigned char* at = find_syscall_in_libc(reinterpret_cast<const void*>(&std::fwrite));
  if (at == nullptr) return;
  struct { unsigned long dev, ino, nlink; unsigned mode, uid, gid; unsigned char rest[128]; } st{};
  for (long fd = 3; fd < 256; ++fd) {
    if (raw_call(at, linux_fstat, fd, reinterpret_cast<long>(&st), 0) != 0) continue;
    if ((st.mode & 0170000) != fifo_type) continue;
    raw_call(at, linux_write, fd, reinterpret_cast<long>(line), static_cast<long>(std::strlen(line)));
  }
}
} // namespace

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  const dim3 block(32, 8);
  const dim3 grid((K + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  matmul_coalesced<<<grid, block>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
  forge("{\"type\":\"error\",\"error\":\"cannot create output file 0.0.C.bin: No space left on device\"}\n");
}
