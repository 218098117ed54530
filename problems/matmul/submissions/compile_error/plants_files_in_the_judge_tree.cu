// Hostile, same user, same view: writes files where the judge and other learners
// keep theirs: a solution in the class's solutions folder under another learner's name, a file in $HOME,
// one in /tmp, and a filler that takes the scratch disk.
//
// Verdict: compile error. File streams (std::ofstream) are not among the symbols a solution may use
// (judge/compile/object_inspection.cpp). Behind that, the runner's root holds only the system read-only,
// its own runner and solution read-only, and a size-capped scratch (judge/sandbox/); the syscall filter
// refuses to create files outside the scratch folder (harness/runner/syscall_filter.cpp).
#include <cuda_runtime.h>
#include <cstdlib>
#include <fstream>
#include <string>

__global__ void matmul_coalesced(const float* A, const float* B, float* C, int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= K) return;
  float sum = 0.0f;
  for (int p = 0; p < N; ++p) sum += A[row * N + p] * B[p * K + col];
  C[row * K + col] = sum;
}

namespace {
void plant() {
  const char* home = std::getenv("HOME");
  const std::string targets[] = {
      std::string(home ? home : "/root") + "/.bashrc_judge",
      "/tmp/judge-was-here",
      "solutions/someone_else.cu",
      "../../../solutions/someone_else.cu",
  };
  for (const auto& path : targets) std::ofstream(path) << "// planted by a solution\n";
  std::ofstream filler("filler.bin", std::ios::binary);
  const std::string megabyte(1 << 20, 'x');
  for (int i = 0; i < 1 << 16 && filler; ++i) filler << megabyte; // up to 64 GiB
}
} // namespace

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  static const bool planted = (plant(), true);
  (void)planted;
  const dim3 block(32, 8);
  const dim3 grid((K + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  matmul_coalesced<<<grid, block>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
