// Hostile, the timing window's landmarks: the harness opened the timed window when
// its marker kernel, recognised by name, ended. This solution does the real work first and then launches
// a kernel of its own with the marker's name (`judge_timing_marker`, extern "C", unmangled like the
// harness's), so the window opened after the work: a correct answer at a time of a few microseconds.
//
// Verdict: accepted, with an honest time. The harness recognises its marker by the correlation id of its
// own launch, never by name (harness/timing/cupti_timer.cpp), so the learner's kernel of that name is
// timed like any other. And the learner's object is a shared object loaded with RTLD_LOCAL, so the name
// collides with nothing (linked into the runner, it was a duplicate symbol).
#include <cuda_runtime.h>

__global__ void matmul_coalesced(const float* A, const float* B, float* C, int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= K) return;
  float sum = 0.0f;
  for (int p = 0; p < N; ++p) sum += A[row * N + p] * B[p * K + col];
  C[row * K + col] = sum;
}

extern "C" __global__ void judge_timing_marker() {}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  const dim3 block(32, 8);
  const dim3 grid((K + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  matmul_coalesced<<<grid, block>>>(A, B, C, M, N, K);
  judge_timing_marker<<<1, 1>>>(); // after the work: "the window opens here"
  cudaDeviceSynchronize();
}
