// Hostile, same user, same view: leaves a process behind that survives the grading.
// A static constructor forks a child that calls setsid() (leaving the runner's process group, which the
// judge kills as a whole) and holds most of the GPU's memory and its SMs, so that the next solution is
// graded on a hogged GPU. The parent computes correctly.
//
// Verdict: compile error. fork() and setsid() are not on the list of symbols a solution may use
// (judge/compile/object_inspection.cpp). Behind that, the syscall filter refuses fork and setsid
// (harness/runner/syscall_filter.cpp), and every runner lives in its own PID namespace and cgroup: when
// the runner ends, the namespace's init dies and the kernel kills every process in it, and
// `cgroup.kill` ends the rest (judge/sandbox/).
#include <cuda_runtime.h>
#include <unistd.h>

__global__ void matmul_coalesced(const float* A, const float* B, float* C, int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= K) return;
  float sum = 0.0f;
  for (int p = 0; p < N; ++p) sum += A[row * N + p] * B[p * K + col];
  C[row * K + col] = sum;
}

__global__ void spin(volatile int* never) {
  while (*never == 0) {
  }
}

namespace {
struct leave_a_hog_behind {
  leave_a_hog_behind() {
    if (fork() != 0) return; // the parent goes on to be the runner
    setsid();
    size_t free_bytes = 0, total = 0;
    cudaMemGetInfo(&free_bytes, &total);
    void* hoard = nullptr;
    cudaMalloc(&hoard, free_bytes - free_bytes / 16);
    int* never = nullptr;
    cudaMalloc(&never, sizeof(int));
    cudaMemset(never, 0, sizeof(int));
    spin<<<1024, 256>>>(never);
    for (;;) cudaDeviceSynchronize();
  }
} const early;
} // namespace

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  const dim3 block(32, 8);
  const dim3 grid((K + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  matmul_coalesced<<<grid, block>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
