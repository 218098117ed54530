// Ladder step 3: 16-byte loads, two online pairs per thread, and a second pass that reads backwards.
//
// What it teaches: when a computation must read its input twice, make the second read cheap.
//  - float4 loads and stores: a quarter of the load instructions (the buffers are 256-byte aligned;
//    the N % 4 values left over go through the first threads).
//  - Two independent (m, s) pairs per thread, fed from two loads in flight: the expf and compare chain
//    of one pair no longer waits for the other's load. The pairs are merged before the warp shuffles.
//  - Pass 2 walks the array from its end. Pass 1 finished with the last part of the array, so that part
//    is still in the 50 MB L2 cache: reading it first turns up to 50 MB of the second read into cache
//    hits before the older data is needed. Reading forwards, the second pass starts at the beginning of
//    the array, which pass 1 evicted long ago, and every load goes to memory.
//
// Verdict: accepted.
#include <cuda_runtime.h>

#include <cfloat>
#include <cstddef>

namespace {

constexpr int threads = 512;

struct online {
  float m, s;
};

__device__ online combine(online a, online b) {
  const float m = fmaxf(a.m, b.m);
  return {m, a.s * expf(a.m - m) + b.s * expf(b.m - m)};
}

__device__ online add(online a, float x) {
  if (x > a.m) return {x, a.s * expf(a.m - x) + 1.0f};
  return {a.m, a.s + expf(x - a.m)};
}

__device__ online add4(online a, float4 x) { return add(add(add(add(a, x.x), x.y), x.z), x.w); }

__device__ online warp_combine(online v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v = combine(v, {__shfl_xor_sync(0xffffffffu, v.m, offset), __shfl_xor_sync(0xffffffffu, v.s, offset)});
  return v;
}

__device__ online block_combine(online v) {
  __shared__ online warps[threads / 32];
  v = warp_combine(v);
  if (threadIdx.x % 32 == 0) warps[threadIdx.x / 32] = v;
  __syncthreads();
  v = threadIdx.x < threads / 32 ? warps[threadIdx.x] : online{-FLT_MAX, 0.0f};
  if (threadIdx.x < 32) v = warp_combine(v);
  __syncthreads();
  return v;
}

__global__ void softmax_stats(const float* __restrict__ input, std::size_t n, online* partials, online* result,
                              unsigned* tickets) {
  online a{-FLT_MAX, 0.0f}, b{-FLT_MAX, 0.0f};
  const auto* input4 = reinterpret_cast<const float4*>(input);
  const std::size_t groups = n / 4;
  const std::size_t thread = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * threads;
  std::size_t g = thread;
  for (; g + stride < groups; g += 2 * stride) {
    const float4 x = input4[g], y = input4[g + stride];
    a = add4(a, x);
    b = add4(b, y);
  }
  if (g < groups) a = add4(a, input4[g]);
  if (thread < n % 4) b = add(b, input[groups * 4 + thread]);
  online v = block_combine(combine(a, b));
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = v;
    __threadfence();
    last = atomicAdd(tickets, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  online all{-FLT_MAX, 0.0f};
  for (unsigned k = threadIdx.x; k < gridDim.x; k += threads)
    all = combine(all, {__ldcg(&partials[k].m), __ldcg(&partials[k].s)});
  all = block_combine(all);
  if (threadIdx.x == 0) {
    *result = {all.m, 1.0f / all.s};
    *tickets = 0;
  }
}

__global__ void softmax_write_backwards(const float* __restrict__ input, float* __restrict__ output, std::size_t n,
                                        const online* result) {
  const float m = result->m, inv = result->s;
  const auto* input4 = reinterpret_cast<const float4*>(input);
  auto* output4 = reinterpret_cast<float4*>(output);
  const std::size_t groups = n / 4;
  const std::size_t thread = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * threads;
  if (thread < n % 4) output[groups * 4 + thread] = expf(input[groups * 4 + thread] - m) * inv;
  // Group groups-1-k for k = thread, thread + stride, ...: the whole grid moves from the end down.
  for (std::size_t k = thread; k < groups; k += stride) {
    const std::size_t g = groups - 1 - k;
    const float4 x = input4[g];
    output4[g] = make_float4(expf(x.x - m) * inv, expf(x.y - m) * inv, expf(x.z - m) * inv, expf(x.w - m) * inv);
  }
}

} // namespace

extern "C" void solve(const float* input, float* output, int N) {
  static int blocks = 0;
  static online* partials = nullptr;
  static unsigned* tickets = nullptr;
  if (blocks == 0) {
    int device = 0, sms = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    blocks = sms * 4;
    cudaMalloc(&partials, (blocks + 1) * sizeof(online));
    cudaMalloc(&tickets, sizeof(unsigned));
    cudaMemset(tickets, 0, sizeof(unsigned));
  }
  const std::size_t n = static_cast<std::size_t>(N);
  softmax_stats<<<blocks, threads>>>(input, n, partials, partials + blocks, tickets);
  softmax_write_backwards<<<blocks, threads>>>(input, output, n, partials + blocks);
  cudaDeviceSynchronize();
}
