// Hostile, symbol interposition): defines functions of CUPTI's activity API that
// the harness calls to collect its kernel records. Linked into the runner, these definitions replaced
// CUPTI's for the harness too: the flush delivered nothing, the timer fell back or saw an empty window.
//
// Verdict: accepted, with an honest time. The learner's object is a shared object loaded with
// RTLD_LOCAL after the harness has initialised CUPTI (harness/runner/runner_main.cpp: its symbols are
// visible to no one else, and the harness's calls were bound to CUPTI before it was loaded. Defining
// functions is allowed; only the symbols a solution *uses* are checked (judge/compile/object_inspection.cpp).
#include <cuda_runtime.h>
#include <cstddef>
#include <cstdint>

__global__ void matmul_coalesced(const float* A, const float* B, float* C, int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= K) return;
  float sum = 0.0f;
  for (int p = 0; p < N; ++p) sum += A[row * N + p] * B[p * K + col];
  C[row * K + col] = sum;
}

// CUPTI's signatures, written out (cupti.h is not on a solution's include path); 0 is CUPTI_SUCCESS.
extern "C" int cuptiActivityFlushAll(std::uint32_t) { return 0; }
extern "C" int cuptiActivityEnable(int) { return 0; }
extern "C" int cuptiActivityRegisterCallbacks(void (*)(std::uint8_t**, std::size_t*, std::size_t*),
                                              void (*)(void*, std::uint32_t, std::uint8_t*, std::size_t,
                                                       std::size_t)) {
  return 0;
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  const dim3 block(32, 8);
  const dim3 grid((K + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  matmul_coalesced<<<grid, block>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
