// Ladder step 3: 16-byte loads with four sums in flight, and a single pass finished by the last block.
//
// What it teaches: a reduction is a read of 4·N bytes, so its speed is the memory system's; what is
// left after step 2 is issuing loads fast enough and not paying for a second kernel.
//  - float4 loads: one instruction fetches 16 bytes (the buffer starts 256-byte aligned, so groups of 4
//    from the start are aligned); the N % 4 values left over are added by the first threads, once.
//  - Four independent accumulators per thread: four loads are in flight before the first addition
//    waits for one, which hides memory latency without more threads.
//  - The last block finishes: every block stores its partial sum, makes it visible (__threadfence) and
//    takes a ticket from an atomic counter; the block that draws the last ticket knows every partial is
//    written, adds them in block order and writes output[0]. No memset, no second launch, and the
//    result is the same on every call (the partials are added in a fixed order). The counter is reset
//    by that block for the next call.
//
// Verdict: accepted.
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int threads = 512;

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

/// The sum of one block's `value`s, in thread 0 (the others get a partial).
__device__ float block_sum(float value) {
  __shared__ float warp_sums[threads / 32];
  value = warp_sum(value);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = value;
  __syncthreads();
  value = threadIdx.x < threads / 32 ? warp_sums[threadIdx.x] : 0.0f;
  if (threadIdx.x < 32) value = warp_sum(value);
  return value;
}

__global__ void reduce_single_pass(const float* __restrict__ input, float* output, std::size_t n, float* partials,
                                   unsigned* tickets) {
  const std::size_t groups = n / 4;
  const auto* input4 = reinterpret_cast<const float4*>(input);
  const std::size_t thread = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * threads;
  float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
  std::size_t g = thread;
  for (; g + 3 * stride < groups; g += 4 * stride) {
    const float4 a = input4[g], b = input4[g + stride], c = input4[g + 2 * stride], d = input4[g + 3 * stride];
    s0 += (a.x + a.y) + (a.z + a.w);
    s1 += (b.x + b.y) + (b.z + b.w);
    s2 += (c.x + c.y) + (c.z + c.w);
    s3 += (d.x + d.y) + (d.z + d.w);
  }
  for (; g < groups; g += stride) {
    const float4 a = input4[g];
    s0 += (a.x + a.y) + (a.z + a.w);
  }
  if (thread < n % 4) s1 += input[groups * 4 + thread]; // the tail, one value per thread
  const float sum = block_sum((s0 + s1) + (s2 + s3));

  __shared__ bool last;
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = sum;
    __threadfence(); // the partial is visible to every block before the ticket says so
    last = atomicAdd(tickets, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  float total = 0.0f;
  for (unsigned b = threadIdx.x; b < gridDim.x; b += threads) total += __ldcg(&partials[b]);
  total = block_sum(total);
  if (threadIdx.x == 0) {
    output[0] = total;
    *tickets = 0; // ready for the next call
  }
}

} // namespace

extern "C" void solve(const float* input, float* output, int N) {
  static int blocks = 0;
  static float* partials = nullptr;
  static unsigned* tickets = nullptr;
  if (blocks == 0) {
    int device = 0, sms = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    blocks = sms * 4; // 4 blocks of 512 threads fill an SM's 2048 thread slots
    cudaMalloc(&partials, blocks * sizeof(float));
    cudaMalloc(&tickets, sizeof(unsigned));
    cudaMemset(tickets, 0, sizeof(unsigned));
  }
  reduce_single_pass<<<blocks, threads>>>(input, output, static_cast<std::size_t>(N), partials, tickets);
  cudaDeviceSynchronize();
}
