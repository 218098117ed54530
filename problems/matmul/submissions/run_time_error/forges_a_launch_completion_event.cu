// Hostile: rewrites its own recording in memory so that its launch carries a launch attribute the
// recorder never writes: a launch completion event (attribute 12) whose handle is 0x4141414141414141.
// It launches with cudaLaunchKernelEx and a priority attribute, which a replay reproduces, then finds
// the recorder's copy of the launch in its own process's heap (the kernel's name, the std::string that
// holds it, the std::vector whose first element that is) with plain C++ and libc's own `syscall`
// instruction to tell mapped pages from unmapped ones, and rewrites the attribute's id and value. Handed
// to cuLaunchKernelEx as it was, the forged handle crashed the replaying runner.
//
// Caught when timed.
// Verdict: run-time error, with the replaying runner alive. The replaying runner checks every field of a
// recording before any CUDA call: launch attributes must be of the kinds the recorder writes, and each is
// rebuilt from the fields its kind means, never copied; a completion event is refused ("sets launch
// attribute 12, which the judge's recorder never writes").
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#if !defined(__x86_64__)
#error "this fixture is written for x86-64 and libstdc++"
#endif

extern "C" __global__ void matmul_with_a_forged_launch_event(const float* A, const float* B, float* C, int M,
                                                                 int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= K) return;
  float sum = 0.0f;
  for (int p = 0; p < N; ++p) sum += A[row * N + p] * B[p * K + col];
  C[row * K + col] = sum;
}

namespace {
const char kernel_name[] = "matmul_with_a_forged_launch_event";
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

void forge_a_completion_event(unsigned grid_x, unsigned grid_y) {
  const heap_view heap;
  if (!heap.ready()) return;
  std::uint64_t* steps = find_recorded_launch(heap, grid_x, grid_y);
  if (steps == nullptr) return; // not a recorded call
  // recorded_launch: the kernel's name (32 bytes), grid and block (24), shared bytes (8), then the
  // attributes' vector; each attribute is {int id; std::string value}.
  auto* launch = reinterpret_cast<unsigned char*>(steps[0]);
  const auto* attributes = reinterpret_cast<const std::uint64_t*>(launch + 64);
  if (attributes[1] == attributes[0]) return;
  auto* attribute = reinterpret_cast<unsigned char*>(attributes[0]);
  const int completion_event = 12;
  std::memcpy(attribute, &completion_event, sizeof completion_event);
  const auto* value = reinterpret_cast<const std::uint64_t*>(attribute + 8);
  std::memset(reinterpret_cast<void*>(value[0]), 0x41, value[1]);
}
} // namespace

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  cudaLaunchAttribute priority{};
  priority.id = cudaLaunchAttributePriority;
  priority.val.priority = 0;
  cudaLaunchConfig_t config{};
  config.blockDim = dim3(32, 8);
  config.gridDim = dim3((K + 31) / 32, (M + 7) / 8);
  config.attrs = &priority;
  config.numAttrs = 1;
  cudaLaunchKernelEx(&config, matmul_with_a_forged_launch_event, A, B, C, M, N, K);
  cudaDeviceSynchronize();
  forge_a_completion_event(config.gridDim.x, config.gridDim.y);
}
