// Honest, unusual: solve() keeps two allocations between calls, a 16 MiB scratch buffer and one word of
// state, and every call's kernel relies on the word the call before left (it holds the number of calls
// so far; each call checks it, adds, then sets it to its own number). A sort or a scan that numbers its
// tiles from a counter it never clears has this shape.
//
// Verdict: accepted, with its time. A replayed sample must start from the state the recorded call
// found, so the replaying runner puts back the contents of the allocations earlier calls made, up to
// 16 MiB in all, the smallest first: here the word, whatever the scratch's place in memory. Without the
// word put back, every sample after the first finds the previous sample's number and writes NaN, and the
// timed outputs are wrong.
#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>

namespace {
constexpr std::size_t scratch_floats = std::size_t{4} << 20; // 16 MiB

__global__ void add_if_in_step(const float* A, const float* B, float* C, int N, const unsigned* calls_so_far,
                               unsigned this_call, float* scratch) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  const bool in_step = *calls_so_far == this_call - 1;
  C[i] = in_step ? A[i] + B[i] : NAN;
  scratch[static_cast<std::size_t>(i) % scratch_floats] = C[i];
}

__global__ void count_the_call(unsigned* calls_so_far, unsigned this_call) { *calls_so_far = this_call; }
} // namespace

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  static unsigned* calls_so_far = nullptr;
  static float* scratch = nullptr;
  static unsigned calls = 0;
  if (!calls_so_far) {
    cudaMalloc(&calls_so_far, sizeof(unsigned));
    cudaMemset(calls_so_far, 0, sizeof(unsigned));
    cudaMalloc(&scratch, scratch_floats * sizeof(float));
  }
  ++calls;
  const int threads = 256;
  add_if_in_step<<<(N + threads - 1) / threads, threads>>>(A, B, C, N, calls_so_far, calls, scratch);
  count_the_call<<<1, 1>>>(calls_so_far, calls);
  cudaDeviceSynchronize();
}
