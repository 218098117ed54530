// Honest (the other side of the system-call filter): host code whose machine code holds the bytes of a
// system-call instruction by accident. The launch rotates the order of the row tiles by an offset drawn
// from the shape (a hash, `M * 1295 + K`) and uses one row per block for outputs of at most 1295
// elements. 1295 is 0x50f: x86-64 encodes `imul $0x50f, %reg, %reg` and `cmp $0x50f, %reg` with the
// bytes 0f 05 00 00, which are also the bytes of `syscall` (0f 05) in the middle of those instructions.
// nvcc's own registration code (__sti____cudaRegisterAll) holds them in a jump or an offset on some
// toolchains, in no solution's source at all.
//
// Verdict: accepted. The judge does not refuse a solution for the bytes of its code: an instruction
// inside another's bytes is no system call until code jumps there, and any call that code makes, from
// its own instructions or from libc's, is judged by the runner's system-call filter
// (harness/runner/syscall_filter.cpp), which this solution never trips.
#include <cuda_runtime.h>

__global__ void matmul_rotated_rows(const float* A, const float* B, float* C, int M, int N, int K, unsigned rotation) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  // Every row tile is visited once: a rotation of the tile order is a permutation of it.
  const unsigned tile = (blockIdx.y + rotation) % gridDim.y;
  const int row = tile * blockDim.y + threadIdx.y;
  if (row >= M || col >= K) return;
  float sum = 0.0f;
  for (int p = 0; p < N; ++p) sum += A[row * N + p] * B[p * K + col];
  C[row * K + col] = sum;
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
  const unsigned rows_per_block = static_cast<unsigned>(M) * static_cast<unsigned>(K) <= 1295u ? 1 : 8;
  const dim3 block(32, rows_per_block);
  const dim3 grid((K + block.x - 1) / block.x, (M + block.y - 1) / block.y);
  const unsigned rotation = static_cast<unsigned>(M) * 1295u + static_cast<unsigned>(K);
  matmul_rotated_rows<<<grid, block>>>(A, B, C, M, N, K, rotation);
  cudaDeviceSynchronize();
}
