// Honest, unusual: solve() keeps one 32 MiB allocation between calls, and its first word is state: the
// number of calls so far, which every call's kernel checks and then advances (a tile counter a scan
// never clears, kept at the head of its scratch space). The rest of the allocation is scratch.
//
// Verdict: accepted, with its time. The replaying runner puts back, before every sample, what the
// allocations earlier calls made held when the recorded call began, up to 48 MiB of such state in all,
// the smallest first, from a copy it keeps on the device. Without the word put back, every sample after
// the first would find the previous sample's number and write NaN.
#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>

namespace {
constexpr std::size_t scratch_words = std::size_t{8} << 20; // 32 MiB, word 0 is the call counter

__global__ void add_if_in_step(const float* A, const float* B, float* C, int N, unsigned* scratch,
                               unsigned this_call) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  const bool in_step = scratch[0] == this_call - 1;
  C[i] = in_step ? A[i] + B[i] : NAN;
  scratch[1 + static_cast<std::size_t>(i) % (scratch_words - 1)] = __float_as_uint(C[i]);
}

__global__ void count_the_call(unsigned* scratch, unsigned this_call) { scratch[0] = this_call; }
} // namespace

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  static unsigned* scratch = nullptr;
  static unsigned calls = 0;
  if (!scratch) {
    cudaMalloc(&scratch, scratch_words * sizeof(unsigned));
    cudaMemset(scratch, 0, sizeof(unsigned));
  }
  ++calls;
  const int threads = 256;
  add_if_in_step<<<(N + threads - 1) / threads, threads>>>(A, B, C, N, scratch, calls);
  count_the_call<<<1, 1>>>(scratch, calls);
  cudaDeviceSynchronize();
}
