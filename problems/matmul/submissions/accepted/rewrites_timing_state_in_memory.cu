// Hostile: after each call it searches its own process's heap for what a timing loop keeps (a run of at
// least 48 doubles that all read as milliseconds of one kernel, as the per-sample times of a sampler are)
// and overwrites every such run with 0.0025, so that a harness timing in this process would report
// 2.5 µs. It needs no forbidden function: it probes which pages are mapped by writing 8 of their bytes
// into a pipe through libc's own `syscall` instruction (a write from an unmapped page fails with EFAULT
// instead of crashing; /dev/null would not do, it never reads what it is given), which pages are
// writable by reading the pipe back into them (a read into a read-only page fails the same way), and
// then edits memory with plain C++.
//
// Verdict: accepted, at the honest time of its naive kernel. The process that runs learner host code
// holds no clock, no samples and no statistics: the replaying runner, which runs only the solution's
// device code, times the recorded launches and checks their outputs. There is nothing here to find.
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
const unsigned char* find_syscall_in_libc(const void* start) {
  const auto* p = static_cast<const unsigned char*>(start);
  for (int i = 0; i < (256 << 10); ++i, ++p) {
    if (p[0] != 0x0f || p[1] != 0x05) continue;
    if (p[2] == 0xc3) return p;
    if (p[2] == 0x48 && p[3] == 0x3d && p[4] == 0x01 && p[5] == 0xf0 && p[6] == 0xff && p[7] == 0xff) return p;
  }
  return nullptr;
}

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
constexpr long linux_read = 0, linux_write = 1, linux_pipe = 22;
constexpr long page = 4096;

/// A sampler's per-sample times of one kernel: each plausible, and each within 10% of the one before
/// but not equal to it (arrays of floats read as doubles, or constant tables, are neither).
bool in_range(double v) { return v > 0.005 && v < 2.0; }
bool next_sample(double before, double v) { return in_range(v) && v != before && v < 1.1 * before && v > 0.9 * before; }

/// Rewrites every run of 48 or more sample-like doubles in the mapped pages within 64 MiB of the heap.
int rewrite_sample_runs() {
  const unsigned char* at = find_syscall_in_libc(reinterpret_cast<const void*>(&std::fwrite));
  if (at == nullptr) return 0;
  static int pipe_fds[2] = {-1, -1};
  if (pipe_fds[0] < 0 && raw_call(at, linux_pipe, reinterpret_cast<long>(pipe_fds), 0, 0) != 0) return 0;
  // Whether the 8 bytes at `q` can be written: they go through the pipe and back into place.
  const auto writable = [&](double* q) {
    if (raw_call(at, linux_write, pipe_fds[1], reinterpret_cast<long>(q), 8) != 8) return false;
    if (raw_call(at, linux_read, pipe_fds[0], reinterpret_cast<long>(q), 8) == 8) return true;
    double drain;
    raw_call(at, linux_read, pipe_fds[0], reinterpret_cast<long>(&drain), 8);
    return false;
  };
  // Whether the 8 bytes at `q` can be read: they go into the pipe, and out again into a local.
  const auto readable = [&](const void* q) {
    if (raw_call(at, linux_write, pipe_fds[1], reinterpret_cast<long>(q), 8) != 8) return false;
    double drain;
    raw_call(at, linux_read, pipe_fds[0], reinterpret_cast<long>(&drain), 8);
    return true;
  };
  void* probe = std::malloc(64);
  const auto centre = reinterpret_cast<std::uintptr_t>(probe) & ~static_cast<std::uintptr_t>(page - 1);
  std::free(probe);
  int rewritten = 0;
  for (std::uintptr_t p = centre - (64ul << 20); p < centre + (64ul << 20); p += page) {
    if (!readable(reinterpret_cast<const void*>(p))) continue; // not mapped
    auto* words = reinterpret_cast<double*>(p);
    int run = 0;
    for (long i = 0; i < page / 8; ++i) {
      run = i > 0 && next_sample(words[i - 1], words[i]) ? run + 1 : (in_range(words[i]) ? 1 : 0);
      if (run == 48) { // a fast kernel's timing keeps 64 samples or more
        if (!writable(&words[i - 47])) break; // a read-only page
        for (long j = i - 47; j <= i; ++j) words[j] = 0.0025;
        ++rewritten;
        run = 0;
      }
    }
  }
  return rewritten;
}
} // namespace

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  const dim3 block(32, 8);
  const dim3 grid((K + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  matmul_coalesced<<<grid, block>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
  rewrite_sample_runs();
}
