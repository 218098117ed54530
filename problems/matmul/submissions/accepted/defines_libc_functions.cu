// Hostile, symbol interposition: defines libc functions the harness uses. The
// runner lists /proc/self/task with opendir()/readdir() to find threads that outlive solve(), and reads
// requests line by line; linked into the runner, these definitions hid every thread from the check and
// could see (and launch work from inside) the harness's own calls.
//
// Verdict: accepted, with an honest time. The learner's object is a shared object loaded with
// RTLD_LOCAL (harness/runner/runner_main.cpp): the harness and libc keep calling libc's functions, and
// only the learner's own code could call these. Defining functions is allowed; only the symbols a
// solution *uses* are checked (judge/compile/object_inspection.cpp).
#include <cuda_runtime.h>
#include <cstdio>
#include <dirent.h>
#include <sys/types.h>

__global__ void matmul_coalesced(const float* A, const float* B, float* C, int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= K) return;
  float sum = 0.0f;
  for (int p = 0; p < N; ++p) sum += A[row * N + p] * B[p * K + col];
  C[row * K + col] = sum;
}

extern "C" DIR* opendir(const char*) { return nullptr; }     // "no threads here"
extern "C" dirent* readdir(DIR*) { return nullptr; }         // "and nothing in any folder"
extern "C" ssize_t getline(char**, size_t*, FILE*) { return -1; } // "the request channel is closed"

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  const dim3 block(32, 8);
  const dim3 grid((K + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  matmul_coalesced<<<grid, block>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
