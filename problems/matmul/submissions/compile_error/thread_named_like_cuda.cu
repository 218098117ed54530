// Hostile, the timing window's landmarks: the runner's stray-thread check exempted
// threads whose name starts with "cuda" (the CUDA driver's own). This solution starts a thread, names it
// "cuda-EvtHandlr" like a driver thread, and lets it launch the real work after solve() returned, outside
// the timed window; solve() itself launches nothing and returns at once.
//
// Verdict: compile error. Solutions may not start threads: pthread_create (and std::thread, which is
// built on it) is not on the list of symbols a solution may use (judge/compile/object_inspection.cpp).
// Behind that, the thread check no longer exempts any name (harness/call/process_watch.cpp).
#include <cuda_runtime.h>
#include <pthread.h>

__global__ void matmul_coalesced(const float* A, const float* B, float* C, int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= K) return;
  float sum = 0.0f;
  for (int p = 0; p < N; ++p) sum += A[row * N + p] * B[p * K + col];
  C[row * K + col] = sum;
}

namespace {
struct args {
  const float* A;
  const float* B;
  float* C;
  int M, N, K;
};
args g_job;

void* late_work(void*) {
  pthread_setname_np(pthread_self(), "cuda-EvtHandlr");
  const dim3 block(32, 8);
  const dim3 grid((g_job.K + block.x - 1) / block.x, (g_job.M + block.y - 1) / block.y);
  matmul_coalesced<<<grid, block>>>(g_job.A, g_job.B, g_job.C, g_job.M, g_job.N, g_job.K);
  cudaDeviceSynchronize();
  return nullptr;
}
} // namespace

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  g_job = {A, B, C, M, N, K};
  pthread_t t;
  pthread_create(&t, nullptr, late_work, nullptr);
  pthread_detach(t);
}
