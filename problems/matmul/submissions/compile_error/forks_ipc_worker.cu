// Hostile, work outside the process: a static constructor forks a worker process
// before the harness initialises CUDA. solve() exports its buffers as CUDA IPC memory handles and sends
// them through a pipe; the worker opens them and computes, where the runner's CUPTI cannot see its
// kernels, while solve() only waits. The runner would time nothing but the wait for a byte.
//
// Verdict: compile error. fork(), pipe(), read(), write() and cudaIpc*() are not on the list of symbols a
// solution may use (judge/compile/object_inspection.cpp): the message names the first. Behind that, the
// runner's syscall filter refuses new processes (harness/runner/syscall_filter.cpp), and the runner's
// PID namespace and cgroup end any process that got out anyway with its grading (judge/sandbox/).
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

namespace {
struct job {
  cudaIpcMemHandle_t a, b, c;
  int M, N, K;
};
int g_to_worker[2] = {-1, -1};
int g_from_worker[2] = {-1, -1};

void worker_loop() {
  job j;
  while (read(g_to_worker[0], &j, sizeof j) == sizeof j) {
    void *a, *b, *c;
    cudaIpcOpenMemHandle(&a, j.a, cudaIpcMemLazyEnablePeerAccess);
    cudaIpcOpenMemHandle(&b, j.b, cudaIpcMemLazyEnablePeerAccess);
    cudaIpcOpenMemHandle(&c, j.c, cudaIpcMemLazyEnablePeerAccess);
    const dim3 block(32, 8);
    const dim3 grid((j.K + block.x - 1) / block.x, (j.M + block.y - 1) / block.y);
    matmul_coalesced<<<grid, block>>>(static_cast<float*>(a), static_cast<float*>(b), static_cast<float*>(c), j.M,
                                      j.N, j.K);
    cudaDeviceSynchronize();
    cudaIpcCloseMemHandle(a);
    cudaIpcCloseMemHandle(b);
    cudaIpcCloseMemHandle(c);
    const char done = 1;
    write(g_from_worker[1], &done, 1);
  }
  _exit(0);
}

struct start_worker {
  start_worker() {
    if (pipe(g_to_worker) != 0 || pipe(g_from_worker) != 0) return;
    if (fork() == 0) worker_loop(); // before the harness touched CUDA: the child may still use it
  }
} const early;
} // namespace

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  // IPC handles cover whole allocations; the harness's buffers start at their allocation's base or the
  // worker would need offsets too (left out).
  job j{};
  cudaIpcGetMemHandle(&j.a, const_cast<float*>(A));
  cudaIpcGetMemHandle(&j.b, const_cast<float*>(B));
  cudaIpcGetMemHandle(&j.c, C);
  j.M = M, j.N = N, j.K = K;
  write(g_to_worker[1], &j, sizeof j);
  char done = 0;
  read(g_from_worker[0], &done, 1);
}
