// GPU reference of histogram, run inside the runner after every timed call to check it, so its speed is
// paid on every sample. Each block counts its share of the input in shared memory and adds its counts to
// the histogram (which arrives zeroed like the solution's) once per bin; within a warp, the lanes holding
// the same value add once, by how many they are. So a case whose values are all one bin (one_hot_2pow24)
// costs a shared atomic per warp-load instead of a global atomic per element, all on one address.
// Integer atomics are exact in any order. Histograms too large for shared memory (past the problem's
// limit of 1024 bins) count with one global atomic per element. Kernel names start with judge_reference_.
#include <cuda_runtime.h>

#include <cstddef>

namespace {
constexpr int threads = 512;
constexpr int max_blocks = 1024;
constexpr int max_shared_bins = 48 * 1024 / sizeof(int); // without opting in to more shared memory
} // namespace

extern "C" __global__ void judge_reference_histogram_shared(const int* __restrict__ input, int* histogram,
                                                            std::size_t n, int bins) {
  extern __shared__ int counts[];
  for (int b = threadIdx.x; b < bins; b += blockDim.x) counts[b] = 0;
  __syncthreads();
  const int lane = threadIdx.x % 32;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  // Every lane of a warp runs the same iterations (the loop is on the warp's first element), so the
  // match below always sees the whole warp.
  for (std::size_t first = static_cast<std::size_t>(blockIdx.x) * blockDim.x + (threadIdx.x - lane); first < n;
       first += stride) {
    const std::size_t i = first + lane;
    const int v = i < n ? input[i] : -1;
    const bool counted = v >= 0 && v < bins;
    const unsigned same = __match_any_sync(0xffffffffu, counted ? v : -1);
    if (counted && lane == __ffs(same) - 1) atomicAdd(&counts[v], __popc(same));
  }
  __syncthreads();
  for (int b = threadIdx.x; b < bins; b += blockDim.x)
    if (counts[b] != 0) atomicAdd(&histogram[b], counts[b]);
}

extern "C" __global__ void judge_reference_histogram_global(const int* __restrict__ input, int* histogram,
                                                            std::size_t n, int bins) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const int v = input[i];
    if (v >= 0 && v < bins) atomicAdd(&histogram[v], 1);
  }
}

extern "C" void judge_reference_solve(void* const* buffers, const int* sizes, const float* /*scalars*/) {
  const auto* input = static_cast<const int*>(buffers[0]);
  auto* histogram = static_cast<int*>(buffers[1]);
  const auto n = static_cast<std::size_t>(sizes[0]);
  const int bins = sizes[1];
  if (n == 0 || bins <= 0) return;
  const std::size_t wanted = (n + threads - 1) / threads;
  const int blocks = wanted < max_blocks ? static_cast<int>(wanted) : max_blocks;
  if (bins <= max_shared_bins)
    judge_reference_histogram_shared<<<blocks, threads, bins * sizeof(int), cudaStreamLegacy>>>(input, histogram, n,
                                                                                                 bins);
  else
    judge_reference_histogram_global<<<blocks, threads, 0, cudaStreamLegacy>>>(input, histogram, n, bins);
}
