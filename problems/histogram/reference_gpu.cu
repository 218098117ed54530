// GPU reference of histogram, run inside the runner to check timed calls: one global atomicAdd per
// element into the histogram, which arrives zeroed like the solution's. Integer atomics are exact in
// any order. Kernel names start with judge_reference_.
#include <cuda_runtime.h>

#include <cstddef>

extern "C" __global__ void judge_reference_histogram(const int* __restrict__ input, int* histogram, std::size_t n,
                                                     int bins) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const int v = input[i];
    if (v >= 0 && v < bins) atomicAdd(&histogram[v], 1);
  }
}

extern "C" void judge_reference_solve(void* const* buffers, const int* sizes, const float* /*scalars*/) {
  judge_reference_histogram<<<1024, 256, 0, cudaStreamLegacy>>>(
      static_cast<const int*>(buffers[0]), static_cast<int*>(buffers[1]), static_cast<std::size_t>(sizes[0]), sizes[1]);
}
