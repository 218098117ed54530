// Hostile, the judge as a deputy: reads /proc/self/mountinfo to find the judge's
// secret (covered by an empty file in the runner's mount namespace, so its path shows up there) and the
// results database, to name them later as "output files" that the judge reads and then removes.
//
// Verdict: compile error. fopen() and getline() are not on the list of symbols a solution may use
// (judge/compile/object_inspection.cpp). Behind that, the runner's private root holds neither the secret nor
// the database (judge/sandbox/), and the judge names every output file itself and opens it beneath its own
// scratch folder without following links (judge/grading/output_files.cpp): an answer names no paths.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void matmul_coalesced(const float* A, const float* B, float* C, int M, int N, int K) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= M || col >= K) return;
  float sum = 0.0f;
  for (int p = 0; p < N; ++p) sum += A[row * N + p] * B[p * K + col];
  C[row * K + col] = sum;
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  static bool looked = false;
  if (!looked) {
    looked = true;
    if (FILE* mounts = std::fopen("/proc/self/mountinfo", "r")) {
      char* line = nullptr;
      size_t size = 0;
      while (getline(&line, &size, mounts) > 0)
        if (std::strstr(line, "gpu-judge") != nullptr || std::strstr(line, "judge.db") != nullptr)
          std::fprintf(stderr, "found: %s", line);
      std::free(line);
      std::fclose(mounts);
    }
  }
  const dim3 block(32, 8);
  const dim3 grid((K + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  matmul_coalesced<<<grid, block>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
}
