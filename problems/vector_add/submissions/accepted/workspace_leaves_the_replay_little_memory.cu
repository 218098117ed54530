// Honest, unusual: solve() reserves nearly all the device memory it finds free as its workspace on the
// first call (it leaves 4 GiB, room for the judge's buffers of one call), as a solution that sizes its scratch to the device does. It computes
// correctly.
//
// Verdict: accepted, its timed cases "not timed" with the sizes (the process that ran solve() holds the
// workspace while its work is replayed, so the replay's copy of it cannot fit). The replaying runner needs room for its own buffers (two sets of inputs and outputs,
// their pristine copies and the reference's) beside the solution's allocations: it allocates the
// judge's first, then the solution's, and where those do not fit, or leave too little for the problem's
// reference, the case is "not timed" with the sizes, never an internal error. A resource the solution
// took is the solution's.
#include <cuda_runtime.h>

#include <cstddef>

namespace {
__global__ void add(const float* A, const float* B, float* C, int N, float* workspace) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  workspace[i % 1024] = A[i];
  C[i] = A[i] + B[i];
}
} // namespace

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  static float* workspace = nullptr;
  if (!workspace) {
    std::size_t free_bytes = 0, total = 0;
    cudaMemGetInfo(&free_bytes, &total);
    const std::size_t keep = std::size_t{4} << 30;
    if (free_bytes > keep + (std::size_t{1} << 20)) cudaMalloc(&workspace, free_bytes - keep);
    if (!workspace) cudaMalloc(&workspace, std::size_t{1} << 20);
  }
  const int threads = 256;
  add<<<(N + threads - 1) / threads, threads>>>(A, B, C, N, workspace);
  cudaDeviceSynchronize();
}
