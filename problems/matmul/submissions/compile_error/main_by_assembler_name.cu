// Hostile, symbol interposition): defines the symbol `main` without writing
// `main(` anywhere, through an assembler name, so that a check of the source text misses it. Linked into
// the runner, it replaced the harness's main(: the runner never said hello.
//
// Verdict: compile error, naming main(). The learner's object is built on its own (a shared object) and
// inspected by its symbols before it is loaded: a `main` there is refused whatever the source calls it
// (judge/compile/object_inspection.cpp). Behind that, the object is loaded with RTLD_LOCAL after the
// runner's main() is running, so no symbol of it could replace one of the runner's.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void matmul_coalesced(const float* A, const float* B, float* C, int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= K) return;
  float sum = 0.0f;
  for (int p = 0; p < N; ++p) sum += A[row * N + p] * B[p * K + col];
  C[row * K + col] = sum;
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  const dim3 block(32, 8);
  const dim3 grid((K + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  matmul_coalesced<<<grid, block>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}

// What the runner would run instead of its own main(): a protocol it does not speak.
extern "C" int entry_point() __asm__("main");
extern "C" int entry_point() {
  std::puts("{\"type\": \"hello\", \"protocol\": 2}");
  return 0;
}
