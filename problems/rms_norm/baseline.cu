// The rms_norm baseline, hand-written because no CUDA library normalises a plain float array with
// these parameters: the standard design, two kernels.
//   Kernel 1: the sum of squares, 16-byte loads in a grid-stride loop, warp shuffles, and the last
//   block to finish (an atomic ticket) adds the blocks' partial sums in block order and stores
//   gamma / rms.
//   Kernel 2: output = x · (gamma / rms) + beta, 16-byte loads and stores.
// It reads the input twice: 12·N bytes against the 8·N of the scored work.
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

__global__ void squares_kernel(const float* __restrict__ input, std::size_t n, float gamma, float eps, float* partials,
                               float* scale, unsigned* tickets) {
  const std::size_t groups = n / 4;
  const std::size_t thread = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * threads;
  float s = 0.0f;
  for (std::size_t g = thread; g < groups; g += stride) {
    const float4 x = reinterpret_cast<const float4*>(input)[g];
    s += (x.x * x.x + x.y * x.y) + (x.z * x.z + x.w * x.w);
  }
  if (thread < n % 4) s += input[groups * 4 + thread] * input[groups * 4 + thread];
  s = block_sum(s);
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = s;
    __threadfence();
    last = atomicAdd(tickets, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  float total = 0.0f;
  for (unsigned b = threadIdx.x; b < gridDim.x; b += threads) total += __ldcg(&partials[b]);
  total = block_sum(total);
  if (threadIdx.x == 0) {
    *scale = gamma / sqrtf(total / static_cast<float>(n) + eps);
    *tickets = 0;
  }
}

__global__ void normalise_kernel(const float* __restrict__ input, float* __restrict__ output, std::size_t n,
                                 const float* scale, float beta) {
  const float k = *scale;
  const std::size_t groups = n / 4;
  const std::size_t thread = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * threads;
  for (std::size_t g = thread; g < groups; g += stride) {
    const float4 x = reinterpret_cast<const float4*>(input)[g];
    reinterpret_cast<float4*>(output)[g] = make_float4(x.x * k + beta, x.y * k + beta, x.z * k + beta, x.w * k + beta);
  }
  if (thread < n % 4) output[groups * 4 + thread] = input[groups * 4 + thread] * k + beta;
}

} // namespace

extern "C" void solve(const float* input, float gamma, float beta, float* output, int N, float eps) {
  static int blocks = 0;
  static float* partials = nullptr;
  static unsigned* tickets = nullptr;
  if (blocks == 0) {
    int device = 0, sms = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    blocks = sms * 4;
    cudaMalloc(&partials, (blocks + 1) * sizeof(float));
    cudaMalloc(&tickets, sizeof(unsigned));
    cudaMemset(tickets, 0, sizeof(unsigned));
  }
  const std::size_t n = static_cast<std::size_t>(N);
  squares_kernel<<<blocks, threads>>>(input, n, gamma, eps, partials, partials + blocks, tickets);
  normalise_kernel<<<blocks, threads>>>(input, output, n, partials + blocks, beta);
  cudaDeviceSynchronize();
}
