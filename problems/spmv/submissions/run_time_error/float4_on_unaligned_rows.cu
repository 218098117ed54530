// Run-time error: every row read as float4, as if each started on a 16-byte boundary.
//
// What it teaches: a float4 load needs a 16-byte-aligned address. The matrix starts aligned, and so do
// its rows when N is a multiple of 4; this kernel also handles the last N mod 4 columns of a row, so it
// is right for every N on a matrix of one row or of rows a multiple of 4 long. But row i starts i·N
// floats in: with N = 257, row 1 starts 1,028 bytes in, 4 bytes past a boundary, and its first float4
// load is a misaligned address, which ends the kernel (cudaErrorMisalignedAddress) and leaves the CUDA
// context unusable. Step 4 of the ladder reads each row's unaligned head one float at a time.
//
// Verdict: run-time error (a misaligned address), on the first case with several rows and N mod 4 != 0
// (no_zeros_255x257).
#include <cuda_runtime.h>

#include <cstddef>

__global__ void spmv_warp_per_row_float4(const float* __restrict__ A, const float* __restrict__ x,
                                         float* __restrict__ y, int M, int N) {
  const std::size_t row = (static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (row >= static_cast<std::size_t>(M)) return; // whole warps leave together
  const float* a = A + row * N;
  // BUG: a is 16-byte aligned only when row·N is a multiple of 4.
  const float4* a4 = reinterpret_cast<const float4*>(a);
  const int groups = N / 4;
  float sum = 0.0f;
  for (int g = lane; g < groups; g += 32) {
    const float4 v = a4[g];
    const int j = 4 * g;
    sum += v.x * x[j] + v.y * x[j + 1] + v.z * x[j + 2] + v.w * x[j + 3];
  }
  for (int j = 4 * groups + lane; j < N; j += 32) sum += a[j] * x[j];
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  if (lane == 0) y[row] = sum;
}

extern "C" void solve(const float* A, const float* x, float* y, int M, int N, int nnz) {
  const int threads = 256; // 8 rows per block
  const std::size_t blocks = (static_cast<std::size_t>(M) * 32 + threads - 1) / threads;
  spmv_warp_per_row_float4<<<static_cast<unsigned>(blocks), threads>>>(A, x, y, M, N);
  (void)nnz;
  cudaDeviceSynchronize();
}
