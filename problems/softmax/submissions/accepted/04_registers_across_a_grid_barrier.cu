// Ladder step 4: one kernel, one read: the input stays in registers across a grid-wide barrier.
//
// What it teaches: at LeetGPU's size (N = 500,000, 2 MB) a call is a few microseconds, so a second
// launch and a second read of the input cost as much as the work itself.
//  - One launch. A cooperative launch (cudaLaunchCooperativeKernel) guarantees that every block of the
//    grid is resident at once, which makes a barrier across blocks safe: no block waits for one that has
//    not been scheduled. Between the two phases (the maximum and sum, then the outputs) the blocks meet
//    at that barrier instead of at a kernel boundary.
//  - One read. Each thread keeps its values in registers from the first phase to the second: the input
//    is read once and the output written once, 8·N bytes, against 12·N for two passes over memory.
//  - Few blocks. The barrier's cost grows with the blocks that arrive at it, so the grid is sized for
//    two 16-byte groups for each of 512 threads (several loads in flight each), about one block an SM at
//    N = 500,000, rather than one group a thread.
//  - The barrier with acquire and release (cuda::atomic_ref): the arrival is a release, so the block's
//    (m, s) pair is visible to whoever sees it; the wait is an acquire load, with no read-modify-write
//    hammering one word of L2 while it spins.
// Past what the grid's registers hold the kernel loops and reads the input again, backwards, from L2
// (step 3's idea): it stays correct at every size.
//
// Measured on an H100 (80 GB HBM3) at N = 500,000 with a cold L2, in one run: 8.16 µs, 490 GB/s, against
// 8.83 µs for the one-read baseline (108%) and 13.25 µs for step 3. Of the grids tried (threads × groups a
// thread: 512 × 2, 256 × 4, 256 × 2, 128 × 4) 512 × 2 was the fastest; 128 × 4, 9.73 µs, the slowest.
//
// Verdict: accepted.
#include <cuda/atomic>
#include <cuda_runtime.h>

#include <cfloat>
#include <cstddef>

namespace {

constexpr int threads = 512;
constexpr int per_thread = 2; // 16-byte groups a thread keeps in registers

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

/// The block's combined pair, in every thread.
__device__ online block_combine(online v) {
  __shared__ online warps[threads / 32];
  __shared__ online all;
  v = warp_combine(v);
  if (threadIdx.x % 32 == 0) warps[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = warp_combine(threadIdx.x < threads / 32 ? warps[threadIdx.x] : online{-FLT_MAX, 0.0f});
    if (threadIdx.x == 0) all = v;
  }
  __syncthreads();
  return all;
}

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

__global__ void __launch_bounds__(threads)
    softmax_registers(const float* __restrict__ input, float* __restrict__ output, std::size_t n, online* partials,
                      grid_barrier* barrier) {
  const auto* input4 = reinterpret_cast<const float4*>(input);
  auto* output4 = reinterpret_cast<float4*>(output);
  const std::size_t groups = n / 4;
  const std::size_t thread = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * threads;
  const bool in_registers = groups <= stride * per_thread; // the same in every thread of the grid
  float4 x[per_thread];
  online v{-FLT_MAX, 0.0f};
  if (in_registers) {
#pragma unroll
    for (int k = 0; k < per_thread; ++k) { // every load issued before the first expf waits on one
      const std::size_t g = thread + k * stride;
      if (g < groups) x[k] = input4[g];
    }
#pragma unroll
    for (int k = 0; k < per_thread; ++k)
      if (thread + k * stride < groups) v = add4(v, x[k]);
  } else {
    for (std::size_t g = thread; g < groups; g += stride) v = add4(v, input4[g]);
  }
  if (thread < n % 4) v = add(v, input[groups * 4 + thread]);
  v = block_combine(v);
  if (threadIdx.x == 0) partials[blockIdx.x] = v; // released by this thread's arrival
  grid_sync(barrier);

  online all{-FLT_MAX, 0.0f};
  for (unsigned b = threadIdx.x; b < gridDim.x; b += threads)
    all = combine(all, {__ldcg(&partials[b].m), __ldcg(&partials[b].s)});
  all = block_combine(all); // the same order in every block: the same m and s everywhere
  const float m = all.m, inv = 1.0f / all.s;

  if (thread < n % 4) output[groups * 4 + thread] = expf(input[groups * 4 + thread] - m) * inv;
  if (in_registers) {
#pragma unroll
    for (int k = 0; k < per_thread; ++k) {
      const std::size_t g = thread + k * stride;
      if (g < groups)
        output4[g] = make_float4(expf(x[k].x - m) * inv, expf(x[k].y - m) * inv, expf(x[k].z - m) * inv,
                                 expf(x[k].w - m) * inv);
    }
  } else {
    for (std::size_t j = thread; j < groups; j += stride) {
      const std::size_t h = groups - 1 - j;
      const float4 y = input4[h];
      output4[h] = make_float4(expf(y.x - m) * inv, expf(y.y - m) * inv, expf(y.z - m) * inv, expf(y.w - m) * inv);
    }
  }
}

} // namespace

extern "C" void solve(const float* input, float* output, int N) {
  static int resident = 0; // blocks the device holds at once
  static online* partials = nullptr;
  static grid_barrier* barrier = nullptr;
  if (resident == 0) {
    int device = 0, sms = 0, per_sm = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, softmax_registers, threads, 0);
    resident = sms * (per_sm > 0 ? per_sm : 1);
    cudaMalloc(&partials, resident * sizeof(online));
    cudaMalloc(&barrier, sizeof(grid_barrier));
    cudaMemset(barrier, 0, sizeof(grid_barrier));
  }
  std::size_t n = static_cast<std::size_t>(N);
  const std::size_t per_block = static_cast<std::size_t>(threads) * per_thread;
  const std::size_t wanted = (n / 4 + per_block - 1) / per_block;
  const int blocks = static_cast<int>(wanted < 1 ? 1 : wanted < static_cast<std::size_t>(resident) ? wanted : resident);
  void* args[] = {&input, &output, &n, &partials, &barrier};
  cudaLaunchCooperativeKernel(reinterpret_cast<const void*>(softmax_registers), dim3(blocks), dim3(threads), args, 0,
                              nullptr);
  cudaDeviceSynchronize();
}
