// Ladder step 4: the input stays in registers across the grid-wide barrier: one read.
//
// What it teaches: step 3 met at a grid-wide barrier but read its input twice, the second time from
// L2. At LeetGPU's size (N = 100,000, 400 KB) the whole input fits in the grid's registers, so the
// second read need not happen at all.
//  - One read. Each thread loads its two 16-byte groups into registers, sums their squares,
//    waits at the barrier, and writes x · (gamma / rms) + beta from the same registers: 8·N bytes
//    moved, against 12·N.
//  - A grid sized to the work. The barrier's cost grows with the blocks that arrive at it, so the grid
//    holds two groups for each of 256 threads (several loads in flight each), not one block per SM's
//    worth of threads four times over as step 3 did.
//  - The barrier with acquire and release (cuda::atomic_ref): the arrival is a release, so the block's
//    partial sum is visible to whoever sees it; the wait is an acquire load, not a read-modify-write
//    spinning on one word of L2, and no call counter travels from the host.
// Past what the grid's registers hold the kernel loops and reads the input again, backwards, from L2
// (step 3's way): it stays correct at every size.
//
// Measured on an H100 (80 GB HBM3) at N = 100,000 with a cold L2, in one run: 5.95 µs, 134 GB/s, against
// 6.46 µs for the one-read baseline (109%) and 8.05 µs for step 3. The grids tried (threads × groups a
// thread: 256 × 2, 128 × 4, 256 × 4, 512 × 2) were within 5% of each other, 5.95 to 6.21 µs.
//
// Verdict: accepted.
#include <cuda/atomic>
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int threads = 256;
constexpr int per_thread = 2; // 16-byte groups a thread keeps in registers

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

__device__ void grid_sync(grid_barrier* barrier) {
  __syncthreads();
  if (threadIdx.x == 0) {
    cuda::atomic_ref<unsigned, cuda::thread_scope_device> arrived(barrier->arrived), generation(barrier->generation);
    // The generation cannot move before this block has arrived: the one read now is this barrier's.
    const unsigned mine = generation.load(cuda::memory_order_relaxed);
    if (arrived.fetch_add(1, cuda::memory_order_acq_rel) == gridDim.x - 1) {
      arrived.store(0, cuda::memory_order_relaxed);
      generation.fetch_add(1, cuda::memory_order_release);
    } else {
      while (generation.load(cuda::memory_order_acquire) == mine) {
      }
    }
  }
  __syncthreads();
}

__global__ void __launch_bounds__(threads) rms_norm_registers(const float* __restrict__ input, float gamma, float beta,
                                                              float* __restrict__ output, std::size_t n, float eps,
                                                              float* partials, grid_barrier* barrier) {
  const auto* input4 = reinterpret_cast<const float4*>(input);
  auto* output4 = reinterpret_cast<float4*>(output);
  const std::size_t groups = n / 4;
  const std::size_t thread = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * threads;
  const bool in_registers = groups <= stride * per_thread; // the same in every thread of the grid
  float4 x[per_thread];
  float s = 0.0f;
  if (in_registers) {
#pragma unroll
    for (int k = 0; k < per_thread; ++k) { // every load issued before the first sum waits on one
      const std::size_t g = thread + k * stride;
      if (g < groups) x[k] = input4[g];
    }
#pragma unroll
    for (int k = 0; k < per_thread; ++k)
      if (thread + k * stride < groups) s += squares(x[k]);
  } else {
    for (std::size_t g = thread; g < groups; g += stride) s += squares(input4[g]);
  }
  if (thread < n % 4) s += input[groups * 4 + thread] * input[groups * 4 + thread];
  s = block_sum(s);
  if (threadIdx.x == 0) partials[blockIdx.x] = s; // released by this thread's arrival
  grid_sync(barrier);

  float total = 0.0f;
  for (unsigned b = threadIdx.x; b < gridDim.x; b += threads) total += __ldcg(&partials[b]);
  // The same order in every block: the same scale everywhere.
  const float k = gamma / sqrtf(block_sum(total) / static_cast<float>(n) + eps);

  if (thread < n % 4) output[groups * 4 + thread] = input[groups * 4 + thread] * k + beta;
  if (in_registers) {
#pragma unroll
    for (int j = 0; j < per_thread; ++j) {
      const std::size_t g = thread + j * stride;
      if (g < groups)
        output4[g] = make_float4(x[j].x * k + beta, x[j].y * k + beta, x[j].z * k + beta, x[j].w * k + beta);
    }
  } else {
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
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, rms_norm_registers, threads, 0);
    resident = sms * (per_sm > 0 ? per_sm : 1);
    cudaMalloc(&partials, resident * sizeof(float));
    cudaMalloc(&barrier, sizeof(grid_barrier));
    cudaMemset(barrier, 0, sizeof(grid_barrier));
  }
  std::size_t n = static_cast<std::size_t>(N);
  const std::size_t per_block = static_cast<std::size_t>(threads) * per_thread;
  const std::size_t wanted = (n / 4 + per_block - 1) / per_block;
  const int blocks = static_cast<int>(wanted < 1 ? 1 : wanted < static_cast<std::size_t>(resident) ? wanted : resident);
  void* args[] = {&input, &gamma, &beta, &output, &n, &eps, &partials, &barrier};
  cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(rms_norm_registers), dim3(blocks), dim3(threads), args, 0,
                              nullptr);
  cudaDeviceSynchronize();
}
