// Hostile to the judge's memory, honest in its answer: solve() splits the vector into 2000 slices and
// gives each slice's launch a 32,000-byte parameter block (a struct passed by value, which CUDA 12.1
// allows up to 32,764 bytes). Its recording would hold 2000 such blocks: about 128 MB of hex, once read
// whole by the judge's own process.
//
// Verdict: accepted, not timed ("solve()'s launches pass more than 12 MiB of kernel parameters in one
// call"). The recorder stops at that total (common/recorded_work.hpp, recording_limits), so what it
// writes stays inside the 160 MiB that the replaying runner reads at most; the judge moves a recording
// unread, and the replaying runner refuses a larger one while reading it. The checked calls still check
// every element.
#include <cuda_runtime.h>

namespace {
struct padding {
  float words[8000];
};

constexpr int slices = 2000;

__global__ void add_slice(const float* A, const float* B, float* C, int begin, int end, padding p) {
  const int i = begin + blockIdx.x * blockDim.x + threadIdx.x;
  // The padding's first word is 0: it joins the sum so that the block is really passed.
  if (i < end) C[i] = A[i] + B[i] + p.words[0];
}
} // namespace

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  static padding p{}; // zero-filled, 32,000 bytes
  const int per_slice = (N + slices - 1) / slices;
  for (int begin = 0; begin < N; begin += per_slice) {
    const int end = begin + per_slice < N ? begin + per_slice : N;
    add_slice<<<(end - begin + 255) / 256, 256>>>(A, B, C, begin, end, p);
  }
  cudaDeviceSynchronize();
}
