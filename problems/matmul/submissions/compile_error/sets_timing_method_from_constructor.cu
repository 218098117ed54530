// Hostile, code before main(): a static constructor runs before the harness and
// sets the environment variable the harness once read to choose its timing method, asking for the
// event timer (which sees only the default stream) so that work on a side stream goes untimed.
//
// Verdict: compile error. The learner's object may not call setenv(): it is not on the list of symbols
// a solution may use (judge/compile/object_inspection.cpp), and the message names it. Even if it could,
// the timing method is now chosen by the judge's request and checked equal to the baseline's.
#include <cuda_runtime.h>
#include <cstdlib>

__global__ void matmul_coalesced(const float* A, const float* B, float* C, int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= K) return;
  float sum = 0.0f;
  for (int p = 0; p < N; ++p) sum += A[row * N + p] * B[p * K + col];
  C[row * K + col] = sum;
}

namespace {
struct before_the_harness {
  before_the_harness() { setenv("JUDGE_TIMING", "events", 1); }
} const early;
} // namespace

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  static cudaStream_t side = [] {
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    return s;
  }();
  const dim3 block(32, 8);
  const dim3 grid((K + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  matmul_coalesced<<<grid, block, 0, side>>>(A, B, C, M, N, K);
  cudaStreamSynchronize(side);
}
