// Ladder step 3: one kernel with a grid-wide barrier, 16-byte loads, and the second read from L2.
//
// What it teaches: a grid-wide barrier without a second kernel.
//  - A cooperative launch (cudaLaunchCooperativeKernel) guarantees that every block of the grid is
//    resident at once, which is what makes a barrier across blocks safe: no block can wait for one
//    that has not been scheduled. The grid is sized from the occupancy API to exactly what fits.
//  - The barrier itself: each block stores its partial sum, makes it visible (__threadfence) and
//    adds 1 to an arrival counter; the block that arrives last resets the counter and publishes this
//    call's number in a flag word, which the other blocks wait for. Then every block adds the same
//    partials in the same order, so all agree on the same rms to the last bit.
//  - The second phase walks the input backwards: the first phase ended on the end of the array, which
//    is still in the 50 MB L2, so that part of the second read is a cache hit.
// One launch instead of two, no memset, and part of the second read served by L2.
//
// Verdict: accepted.
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int threads = 512;

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

__device__ float block_sum(float v) {
  __shared__ float warps[threads / 32];
  v = warp_sum(v);
  if (threadIdx.x % 32 == 0) warps[threadIdx.x / 32] = v;
  __syncthreads();
  v = threadIdx.x < threads / 32 ? warps[threadIdx.x] : 0.0f;
  if (threadIdx.x < 32) v = warp_sum(v);
  __syncthreads();
  return v;
}

struct barrier_state {
  unsigned arrived;
  unsigned generation;
};

__global__ void rms_norm_cooperative(const float* __restrict__ input, float gamma, float beta,
                                     float* __restrict__ output, std::size_t n, float eps, float* partials,
                                     barrier_state* barrier, unsigned call) {
  const auto* input4 = reinterpret_cast<const float4*>(input);
  const std::size_t groups = n / 4;
  const std::size_t thread = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * threads;
  float s0 = 0.0f, s1 = 0.0f;
  std::size_t g = thread;
  for (; g + stride < groups; g += 2 * stride) {
    const float4 x = input4[g], y = input4[g + stride];
    s0 += (x.x * x.x + x.y * x.y) + (x.z * x.z + x.w * x.w);
    s1 += (y.x * y.x + y.y * y.y) + (y.z * y.z + y.w * y.w);
  }
  if (g < groups) {
    const float4 x = input4[g];
    s0 += (x.x * x.x + x.y * x.y) + (x.z * x.z + x.w * x.w);
  }
  if (thread < n % 4) s1 += input[groups * 4 + thread] * input[groups * 4 + thread];
  const float block = block_sum(s0 + s1);

  // The grid-wide barrier.
  __shared__ float scale;
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = block;
    __threadfence();
    if (atomicAdd(&barrier->arrived, 1u) == gridDim.x - 1) {
      barrier->arrived = 0;
      __threadfence();
      atomicExch(&barrier->generation, call);
    } else {
      while (atomicAdd(&barrier->generation, 0u) != call) {
      }
    }
    __threadfence();
  }
  __syncthreads();
  float total = 0.0f;
  for (unsigned b = threadIdx.x; b < gridDim.x; b += threads) total += __ldcg(&partials[b]);
  total = block_sum(total);
  if (threadIdx.x == 0) scale = gamma / sqrtf(total / static_cast<float>(n) + eps);
  __syncthreads();
  const float k = scale;

  if (thread < n % 4) output[groups * 4 + thread] = input[groups * 4 + thread] * k + beta;
  for (std::size_t j = thread; j < groups; j += stride) {
    const std::size_t h = groups - 1 - j; // from the end of the array down
    const float4 x = input4[h];
    reinterpret_cast<float4*>(output)[h] = make_float4(x.x * k + beta, x.y * k + beta, x.z * k + beta, x.w * k + beta);
  }
}

} // namespace

extern "C" void solve(const float* input, float gamma, float beta, float* output, int N, float eps) {
  static int blocks = 0;
  static float* partials = nullptr;
  static barrier_state* barrier = nullptr;
  static unsigned call = 0;
  if (blocks == 0) {
    int device = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, rms_norm_cooperative, threads, 0);
    blocks = sms * (per_sm < 4 ? per_sm : 4);
    cudaMalloc(&partials, blocks * sizeof(float));
    cudaMalloc(&barrier, sizeof(barrier_state));
    cudaMemset(barrier, 0, sizeof(barrier_state));
  }
  ++call;
  if (call == 0) call = 1; // 0 is the flag's value before the first call
  std::size_t n = static_cast<std::size_t>(N);
  void* args[] = {&input, &gamma, &beta, &output, &n, &eps, &partials, &barrier, &call};
  cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(rms_norm_cooperative), dim3(blocks), dim3(threads), args, 0,
                              nullptr);
  cudaDeviceSynchronize();
}
