// Honest (the other side of the system-call filter): host code whose machine code holds the bytes of a
// system-call instruction by accident. Each block adds a run of 1296 elements (about five per thread,
// in a block-stride loop), so the launch rounds up with `(N + 1295) / 1296`. 1295 is 0x50f: x86-64
// encodes `lea 0x50f(%reg), %reg` and `add $0x50f, %reg` with the bytes 0f 05 00 00, which are also the
// bytes of `syscall` (0f 05) in the middle of those instructions.
//
// Verdict: accepted. The judge does not refuse a solution for the bytes of its code: an instruction
// inside another's bytes is no system call until code jumps there, and any call that code makes, from
// its own instructions or from libc's, is judged by the runner's system-call filter
// (harness/runner/syscall_filter.cpp), which this solution never trips.
#include <cuda_runtime.h>

constexpr int run_length = 1296; // elements per block

__global__ void vector_add_runs(const float* A, const float* B, float* C, int N) {
  const long long begin = static_cast<long long>(blockIdx.x) * run_length;
  const long long end = begin + run_length < N ? begin + run_length : N;
  for (long long i = begin + threadIdx.x; i < end; i += blockDim.x) C[i] = A[i] + B[i];
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  const int blocks = static_cast<int>((static_cast<long long>(N) + run_length - 1) / run_length);
  if (blocks > 0) vector_add_runs<<<blocks, 256>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
