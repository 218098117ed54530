// Hostile: rewrites its own recording in memory so that its whole matmul launch moves into the part the
// replay issues before each timed sample, untimed, and the timed part keeps only a function attribute.
// After its launch it finds the recorder's copy of the launch (the kernel's name, then the std::string
// that holds it, then the std::vector whose first element that is) in its own process's heap, with
// plain C++ and libc's own `syscall` instruction to tell mapped pages from unmapped ones, and swaps that
// vector's header with the one before it (the restoration steps). Against a replay that issued
// whatever came before the window, after the sample's inputs were drawn, this was accepted at a few
// microseconds for work of about 200 µs.
//
// Caught when timed.
// Verdict: run-time error. What the replay issues before a sample is restoration only (function
// attributes, copies from the host into the solution's allocations and device variables), and it runs
// before the sample's inputs exist; the replaying runner checks the recording before any CUDA call and
// refuses a launch there ("does device work before the timed window ... which the judge's recorder
// never writes"). A recording is learner-written input, so its refusal is the learner's run-time error.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#if !defined(__x86_64__)
#error "this fixture is written for x86-64 and libstdc++"
#endif

extern "C" __global__ void matmul_moved_before_the_timed_window(const float* A, const float* B, float* C, int M,
                                                                 int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= K) return;
  float sum = 0.0f;
  for (int p = 0; p < N; ++p) sum += A[row * N + p] * B[p * K + col];
  C[row * K + col] = sum;
}

namespace {
const char kernel_name[] = "matmul_moved_before_the_timed_window";
constexpr std::size_t name_length = sizeof kernel_name - 1;
constexpr std::size_t step_bytes = 208; // sizeof(std::variant of the recorder's steps), libstdc++ x86-64

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

/// The heap's mapped pages near a fresh allocation, told by whether write(2) can read them.
class heap_view {
public:
  heap_view() : m_at(find_syscall_in_libc(reinterpret_cast<const void*>(&std::fwrite))) {
    if (m_at != nullptr && raw_call(m_at, 22 /* pipe */, reinterpret_cast<long>(m_pipe), 0, 0) != 0) m_at = nullptr;
  }
  bool ready() const { return m_at != nullptr; }
  bool readable(const void* q, long bytes = 8) const {
    for (long done = 0; done < bytes; done += 8) {
      if (raw_call(m_at, 1 /* write */, m_pipe[1], reinterpret_cast<long>(q) + done, 8) != 8) return false;
      char drain[8];
      raw_call(m_at, 0 /* read */, m_pipe[0], reinterpret_cast<long>(drain), 8);
    }
    return true;
  }
  /// Calls `visit(word address)` for every 8-byte word of the mapped pages within 256 MiB of the heap.
  template <typename F> void each_word(F visit) const {
    void* probe = std::malloc(64);
    const auto centre = reinterpret_cast<std::uintptr_t>(probe) & ~std::uintptr_t{4095};
    std::free(probe);
    for (std::uintptr_t p = centre - (256ul << 20); p < centre + (256ul << 20); p += 4096) {
      if (!readable(reinterpret_cast<const void*>(p))) continue;
      for (std::uintptr_t w = p; w + 24 <= p + 4096; w += 8) // the three words a visit reads
        if (visit(reinterpret_cast<std::uint64_t*>(w))) return;
    }
  }

private:
  const unsigned char* m_at;
  int m_pipe[2] = {-1, -1};
};

/// The header {begin, end, capacity} of the recorder's vector of steps whose first element is this
/// launch (its kernel's name, then its grid x and y, told apart from a function attribute of the same
/// kernel), or nullptr.
std::uint64_t* find_recorded_launch(const heap_view& heap, unsigned grid_x, unsigned grid_y) {
  std::uint64_t* found = nullptr;
  heap.each_word([&](std::uint64_t* w) {
    if (w[1] != name_length) return false;
    const auto* text = reinterpret_cast<const char*>(w[0]);
    if (reinterpret_cast<std::uintptr_t>(text) < 4096 || !heap.readable(text, 40)) return false;
    if (std::memcmp(text, kernel_name, name_length) != 0 || text == kernel_name) return false;
    const auto* grid = reinterpret_cast<const unsigned*>(reinterpret_cast<const char*>(w) + 32);
    if (!heap.readable(grid, 16) || grid[0] != grid_x || grid[1] != grid_y) return false;
    // The launch is the first step of its vector: a header {begin, end, capacity} points at it.
    heap.each_word([&](std::uint64_t* v) {
      if (v[0] != reinterpret_cast<std::uint64_t>(w) || v[1] <= v[0] || (v[1] - v[0]) % step_bytes != 0 ||
          v[2] < v[1])
        return false;
      found = v;
      return true;
    });
    return found != nullptr;
  });
  return found;
}

void move_steps_before_the_window(unsigned grid_x, unsigned grid_y) {
  const heap_view heap;
  if (!heap.ready()) return;
  std::uint64_t* steps = find_recorded_launch(heap, grid_x, grid_y);
  if (steps == nullptr) return; // not a recorded call
  std::uint64_t* preamble = steps - 3;
  for (int k = 0; k < 3; ++k) {
    const std::uint64_t t = steps[k];
    steps[k] = preamble[k];
    preamble[k] = t;
  }
}
} // namespace

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  // A setting made on the first call: later recorded calls restore it before their samples.
  static const bool carveout_set =
      cudaFuncSetAttribute(matmul_moved_before_the_timed_window, cudaFuncAttributePreferredSharedMemoryCarveout, 50) ==
      cudaSuccess;
  (void)carveout_set;
  const dim3 block(32, 8);
  const dim3 grid((K + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  matmul_moved_before_the_timed_window<<<grid, block>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
  move_steps_before_the_window(grid.x, grid.y);
}
