// The rms_norm baseline, hand-written because no CUDA library normalises a plain float array with
// these parameters: one cooperative kernel that reads the input once.
//   Every thread loads its share of the input into registers (up to four 16-byte groups) and sums
//   their squares; warps and blocks add their sums, each block stores its own, and a grid-wide barrier
//   waits for all of them. Every block then adds the blocks' sums in the same order, so all agree on
//   gamma / rms to the last bit, and writes x · (gamma / rms) + beta from the values still in its
//   registers.
// The cooperative launch (cudaLaunchCooperativeKernel) makes the barrier safe: every block of the grid
// is resident at once. The grid is the work's size up to what fits on the device, so at LeetGPU's size
// (N = 100,000) the input is read once and the output written once, 8·N bytes, in one launch. Past what
// the registers hold (about 4.3 million values on a 132-SM device) the kernel loops instead and reads
// the input again, backwards, from what L2 still holds: it stays correct at every size, and the
// baseline's figures are only taken at LeetGPU's.
// Measured on an H100 (80 GB HBM3) at N = 100,000 with a cold L2: 6.46 µs, against 11.8 µs for the two
// kernels (a sum of squares, then the outputs, with 16-byte loads) it replaced as the baseline.
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int threads = 512;
constexpr int held = 4; // 16-byte groups a thread keeps in registers between the two phases

__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

/// The block's sum, in every thread.
__device__ float block_sum(float v) {
  __shared__ float warps[threads / 32];
  __shared__ float all;
  v = warp_sum(v);
  if (threadIdx.x % 32 == 0) warps[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = warp_sum(threadIdx.x < threads / 32 ? warps[threadIdx.x] : 0.0f);
    if (threadIdx.x == 0) all = v;
  }
  __syncthreads();
  return all;
}

__device__ float squares(float4 x) { return (x.x * x.x + x.y * x.y) + (x.z * x.z + x.w * x.w); }

struct grid_barrier {
  unsigned arrived;
  unsigned generation;
};

/// Waits until every block of the (cooperatively launched) grid has arrived. The last block to arrive
/// resets the count and moves the generation on, which the others wait for; the generation read before
/// arriving cannot move until this block has arrived, so no call's barrier is confused with the next.
__device__ void grid_sync(grid_barrier* barrier) {
  __syncthreads();
  if (threadIdx.x == 0) {
    const unsigned generation = atomicAdd(&barrier->generation, 0u);
    __threadfence();
    if (atomicAdd(&barrier->arrived, 1u) == gridDim.x - 1) {
      atomicExch(&barrier->arrived, 0u);
      __threadfence();
      atomicAdd(&barrier->generation, 1u);
    } else {
      while (atomicAdd(&barrier->generation, 0u) == generation) {
      }
    }
    __threadfence();
  }
  __syncthreads();
}

__global__ void __launch_bounds__(threads) rms_norm_one_read(const float* __restrict__ input, float gamma, float beta,
                                                             float* __restrict__ output, std::size_t n, float eps,
                                                             float* partials, grid_barrier* barrier) {
  const auto* input4 = reinterpret_cast<const float4*>(input);
  auto* output4 = reinterpret_cast<float4*>(output);
  const std::size_t groups = n / 4;
  const std::size_t thread = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * threads;
  const bool in_registers = groups <= stride * held; // the same in every thread of the grid
  float4 x[held];
  float s = 0.0f;
  if (in_registers) {
#pragma unroll
    for (int k = 0; k < held; ++k) {
      const std::size_t g = thread + k * stride;
      if (g < groups) {
        x[k] = input4[g];
        s += squares(x[k]);
      }
    }
  } else {
    for (std::size_t g = thread; g < groups; g += stride) s += squares(input4[g]);
  }
  if (thread < n % 4) s += input[groups * 4 + thread] * input[groups * 4 + thread];
  s = block_sum(s);
  if (threadIdx.x == 0) partials[blockIdx.x] = s; // made visible by grid_sync's fence, in the same thread
  grid_sync(barrier);

  float total = 0.0f;
  for (unsigned b = threadIdx.x; b < gridDim.x; b += threads) total += __ldcg(&partials[b]);
  const float k = gamma / sqrtf(block_sum(total) / static_cast<float>(n) + eps);

  if (thread < n % 4) output[groups * 4 + thread] = input[groups * 4 + thread] * k + beta;
  if (in_registers) {
#pragma unroll
    for (int j = 0; j < held; ++j) {
      const std::size_t g = thread + j * stride;
      if (g < groups)
        output4[g] = make_float4(x[j].x * k + beta, x[j].y * k + beta, x[j].z * k + beta, x[j].w * k + beta);
    }
  } else {
    // Backwards: the first phase ended on the array's end, which L2 still holds.
    for (std::size_t j = thread; j < groups; j += stride) {
      const std::size_t h = groups - 1 - j;
      const float4 y = input4[h];
      output4[h] = make_float4(y.x * k + beta, y.y * k + beta, y.z * k + beta, y.w * k + beta);
    }
  }
}

} // namespace

extern "C" void solve(const float* input, float gamma, float beta, float* output, int N, float eps) {
  static int resident = 0; // blocks the device holds at once
  static float* partials = nullptr;
  static grid_barrier* barrier = nullptr;
  if (resident == 0) {
    int device = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, rms_norm_one_read, threads, 0);
    resident = sms * (per_sm > 0 ? per_sm : 1);
    cudaMalloc(&partials, resident * sizeof(float));
    cudaMalloc(&barrier, sizeof(grid_barrier));
    cudaMemset(barrier, 0, sizeof(grid_barrier));
  }
  std::size_t n = static_cast<std::size_t>(N);
  // One 16-byte group a thread while the grid grows; past the device's size, more groups a thread.
  const std::size_t wanted = (n / 4 + threads - 1) / threads;
  const int blocks = static_cast<int>(wanted < 1 ? 1 : wanted < static_cast<std::size_t>(resident) ? wanted : resident);
  void* args[] = {&input, &gamma, &beta, &output, &n, &eps, &partials, &barrier};
  cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(rms_norm_one_read), dim3(blocks), dim3(threads), args, 0,
                              nullptr);
  cudaDeviceSynchronize();
}
