// Ladder step 2: a fixed grid that loops over the input, warp shuffles, and one atomic per block.
//
// What it teaches: three ideas that make a reduction fast.
//  - A grid-stride loop: a fixed number of blocks (enough to fill the GPU) each walk the input with a
//    stride of the whole grid, adding into a register. Loads stay coalesced, and there is one partial
//    sum per thread rather than one thread per element.
//  - Warp shuffles: __shfl_down_sync adds the 32 registers of a warp in 5 steps without shared memory
//    or barriers; only the 8 warp sums of a block go through shared memory, behind one __syncthreads().
//  - Atomics at the right grain: one atomicAdd per block (1,056 of them) into output[0], which is set to
//    zero first because it arrives as garbage (wrong_answer/assumes_zeroed_output.cu forgets that).
//    Their order varies from call to call, and so does the last bit of the sum; every order is inside
//    the tolerance. One atomic per element instead (wrong_answer/one_atomic_per_element.cu) serialises
//    N additions on one address and carries one float across all of them.
// Indices are size_t: N may be 2^31 - 1, and an int index that steps past it wraps around
// (accepted/int_index_overflows_past_the_limits.cu, whose loop never ends there).
//
// Verdict: accepted.
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int threads = 256;

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

__global__ void reduce_grid_stride(const float* __restrict__ input, float* output, std::size_t n) {
  __shared__ float warp_sums[threads / 32];
  float sum = 0.0f;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * threads;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x; i < n; i += stride)
    sum += input[i];
  sum = warp_sum(sum);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = sum;
  __syncthreads();
  if (threadIdx.x < 32) {
    sum = threadIdx.x < threads / 32 ? warp_sums[threadIdx.x] : 0.0f;
    sum = warp_sum(sum);
    if (threadIdx.x == 0) atomicAdd(output, sum);
  }
}

} // namespace

extern "C" void solve(const float* input, float* output, int N) {
  static int blocks = 0;
  if (blocks == 0) {
    int device = 0, sms = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    blocks = sms * 8; // 8 blocks of 256 threads fill an SM's 2048 thread slots
  }
  cudaMemset(output, 0, sizeof(float));
  reduce_grid_stride<<<blocks, threads>>>(input, output, static_cast<std::size_t>(N));
  cudaDeviceSynchronize();
}
