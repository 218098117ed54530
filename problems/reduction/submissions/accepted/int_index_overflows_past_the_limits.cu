// Accepted, with a robustness line: step 2 with an `int` index in its grid-stride loop.
//
// What it teaches: an index must hold every value it takes, not just those below N. With
// N = 2^31 - 1 (the largest int), the last step of each thread's loop goes past N: i + stride is above
// 2^31 - 1, and in an int it wraps around to a large negative number. That is still below N, so the
// loop goes on from there: input[-2^31 + ...] lies 8 GB before the buffer, where the judge's other
// buffers of the case are (on the H200 the reads landed in mapped memory, so they did not fault), and
// when i climbs past 2^31 - 1 again it wraps again. The loop never ends. Every case with N below
// 2^31 minus the grid's size passes, which is why the bug hides until the data is huge. (The stride is
// unsigned, so the sum wraps as unsigned arithmetic does and the compiler cannot assume it away.)
//
// Verdict: accepted. LeetGPU's limit is N <= 100,000,000, where the index never wraps, and every case
// that decides the verdict keeps to it. n_int_max (N = 2^31 - 1) is a robustness case: the report's
// robustness line says the solution would not finish there (time limit exceeded), without changing the
// verdict or the rank. Graded with --strict, n_int_max decides too, and this is a time limit exceeded.
#include <cuda_runtime.h>

namespace {

constexpr int threads = 256;

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void reduce_int_index(const float* __restrict__ input, float* output, int n) {
  __shared__ float warp_sums[threads / 32];
  float sum = 0.0f;
  // BUG: i is an int; i += stride wraps past 2^31 - 1.
  for (int i = blockIdx.x * threads + threadIdx.x; i < n; i += gridDim.x * threads) sum += input[i];
  sum = warp_sum(sum);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = sum;
  __syncthreads();
  if (threadIdx.x < 32) {
    sum = warp_sum(threadIdx.x < threads / 32 ? warp_sums[threadIdx.x] : 0.0f);
    if (threadIdx.x == 0) atomicAdd(output, sum);
  }
}

} // namespace

extern "C" void solve(const float* input, float* output, int N) {
  cudaMemset(output, 0, sizeof(float));
  reduce_int_index<<<1056, threads>>>(input, output, N);
  cudaDeviceSynchronize();
}
