// GPU reference of softmax, run inside the runner to check timed calls: the maximum (exact in float,
// with an integer atomicMax on an order-preserving key), the sum of exp(x - max) in double, then each
// output in double, rounded once. Kernel names start with judge_reference_.
#include <cuda_runtime.h>

#include <cstddef>

namespace {
struct scratch {
  unsigned max_key;
  double sum;
};
scratch* scratch_slot() {
  static scratch* slot = nullptr;
  if (!slot) cudaMalloc(&slot, sizeof(scratch));
  return slot;
}
} // namespace

// Float bits mapped so that unsigned order is float order (negatives reversed).
__device__ unsigned order_key(float x) {
  const unsigned b = __float_as_uint(x);
  return (b & 0x80000000u) ? ~b : b | 0x80000000u;
}
__device__ float from_order_key(unsigned k) { return __uint_as_float((k & 0x80000000u) ? k & 0x7fffffffu : ~k); }

extern "C" __global__ void judge_reference_softmax_max(const float* input, std::size_t n, scratch* s) {
  unsigned best = 0;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    best = max(best, order_key(input[i]));
  atomicMax(&s->max_key, best);
}

extern "C" __global__ void judge_reference_softmax_sum(const float* input, std::size_t n, scratch* s) {
  const double m = from_order_key(s->max_key);
  double sum = 0;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    sum += exp(static_cast<double>(input[i]) - m);
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  if (threadIdx.x % 32 == 0) atomicAdd(&s->sum, sum);
}

extern "C" __global__ void judge_reference_softmax_out(const float* input, float* output, std::size_t n,
                                                       const scratch* s) {
  const double m = from_order_key(s->max_key);
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    output[i] = static_cast<float>(exp(static_cast<double>(input[i]) - m) / s->sum);
}

extern "C" void judge_reference_solve(void* const* buffers, const int* sizes, const float* /*scalars*/) {
  const auto* input = static_cast<const float*>(buffers[0]);
  auto* output = static_cast<float*>(buffers[1]);
  const std::size_t n = static_cast<std::size_t>(sizes[0]);
  scratch* s = scratch_slot();
  cudaMemsetAsync(s, 0, sizeof(scratch), cudaStreamLegacy);
  judge_reference_softmax_max<<<1024, 256, 0, cudaStreamLegacy>>>(input, n, s);
  judge_reference_softmax_sum<<<1024, 256, 0, cudaStreamLegacy>>>(input, n, s);
  judge_reference_softmax_out<<<1024, 256, 0, cudaStreamLegacy>>>(input, output, n, s);
}
