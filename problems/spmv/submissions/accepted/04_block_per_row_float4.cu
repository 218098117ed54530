// Ladder step 4: one block per row, 16-byte loads.
//
// What it changes: a row is given to a block of 256 threads, and each thread reads A four floats at a
// time (float4, one 16-byte load), unrolled so that several loads are in flight before the first sum
// needs one. The threads' sums are added by warp shuffles, then the 8 warps' through shared memory.
//
// Why it should be faster: the bound is the bytes of A in flight. LeetGPU's 1,000 rows are now 1,000
// blocks of 8 warps (about 60 warps per SM instead of 8), each lane with up to 4 loads of 16 bytes in
// flight instead of one of 4: enough outstanding reads to keep the H200's memory busy.
//
// Ragged rows: a float4 load must be 16-byte aligned. The matrix starts 256-byte aligned (the judge's
// guarantee, as cudaMalloc's), but row i starts i·N floats in, which is a multiple of 4 only when N is.
// So each row is cut into a head of up to 3 floats (to the next 16-byte boundary), the aligned float4
// body, and a tail of up to 3; the head and tail are read one float at a time by threads 0 to 2. x is
// read with plain loads: x + j has the row's misalignment, and x is small enough to be served by L1.
//
// Verdict: accepted.
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int threads = 256;

__global__ void spmv_block_per_row_float4(const float* __restrict__ A, const float* __restrict__ x,
                                          float* __restrict__ y, int N) {
  const std::size_t row = blockIdx.x;
  const std::size_t start = row * static_cast<std::size_t>(N);
  const float* a = A + start;
  const int t = threadIdx.x;

  const int misaligned = static_cast<int>(start % 4);
  const int head = misaligned == 0 ? 0 : (4 - misaligned < N ? 4 - misaligned : N);
  const int groups = (N - head) / 4;
  const int tail = head + 4 * groups; // the first column after the body

  float sum = 0.0f;
  if (t < head) sum += a[t] * x[t];
  if (t < N - tail) sum += a[tail + t] * x[tail + t];
  const float4* body = reinterpret_cast<const float4*>(a + head);
#pragma unroll 4
  for (int g = t; g < groups; g += threads) {
    const float4 v = body[g];
    const int j = head + 4 * g;
    sum += v.x * x[j];
    sum += v.y * x[j + 1];
    sum += v.z * x[j + 2];
    sum += v.w * x[j + 3];
  }

  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  __shared__ float warp_sums[threads / 32];
  const int lane = t % 32, warp = t / 32;
  if (lane == 0) warp_sums[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    sum = lane < threads / 32 ? warp_sums[lane] : 0.0f;
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0) y[row] = sum;
  }
}

} // namespace

extern "C" void solve(const float* A, const float* x, float* y, int M, int N, int nnz) {
  spmv_block_per_row_float4<<<static_cast<unsigned>(M), threads>>>(A, x, y, N);
  (void)nnz;
  cudaDeviceSynchronize();
}
