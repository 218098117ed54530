// Hostile: writes its own timing answer on the runner's result channel, followed by half of another
// line, so that a judge which skipped unreadable lines would skip the genuine answer and take the forged
// one (2.5 µs for about 200 µs of work, as it once did). It names no forbidden function: it finds libc's
// own `syscall` instruction from the address of fwrite() and calls write(2) through it on every pipe it
// holds above stderr, the result channel among them.
//
// Verdict: run-time error. The process that runs learner host code holds no clock and sends no timing:
// times come from the replaying runner, which runs only the solution's device code. Every line on a
// channel must be an answer, and one that is not, from a process that runs learner code, is that
// process's failure ("it wrote a line on the result channel that is not an answer").
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
  C[row * K + col] = sum;
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
  forge("{\"type\":\"timing\",\"case\":\"aligned_1024x512x1024\",\"status\":\"ok\",\"error\":null,"
        "\"method\":\"cupti\",\"cold_l2\":true,\"gpu_ms\":[0.0025],\"host_ms\":[0.01],\"sm_clock_mhz\":[1980],"
        "\"throttled\":[false],\"warmup_calls\":3,\"checked_samples\":4,\"mismatched_samples\":0,"
        "\"first_mismatch\":null,\"inputs_modified_samples\":0,\"first_input_modification\":null,"
        "\"other_streams_after_return\":false,\"stop_reason\":\"precision\",\"kernels\":[]}\n{\"type\":\"ti");
}
