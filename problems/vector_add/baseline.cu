// The vector_add baseline ("device copy"): a kernel that moves exactly the bytes a vector addition must
// move, 8·N read and 4·N written, without the addition. It writes C = A, so it is timed but is no
// reference (problem.yaml: is_reference: false). It uses the access pattern that reaches the highest
// bandwidth on the H200 (16-byte loads, a grid-stride loop), so it stands for the memory system's limit,
// not for a particular library.
#include <cuda_runtime.h>

#include <cstddef>

namespace {

// C = A, except where B holds a NaN. On the judge's data that never happens, but the compiler cannot
// know it: the loads of B must stay, and with them their traffic. (A load whose value is unused would
// be deleted.)
__device__ float copy_keeping_b(float a, float b) { return b != b ? b : a; }

__global__ void baseline_device_copy(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                                     std::size_t n) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  // The buffers start 256-byte aligned (the judge's guarantee), so groups of 4 from the start are
  // 16-byte aligned.
  const std::size_t groups = n / 4;
  const auto* a4 = reinterpret_cast<const float4*>(A);
  const auto* b4 = reinterpret_cast<const float4*>(B);
  auto* c4 = reinterpret_cast<float4*>(C);
  for (std::size_t g = first; g < groups; g += stride) {
    const float4 a = a4[g];
    const float4 b = b4[g];
    c4[g] = make_float4(copy_keeping_b(a.x, b.x), copy_keeping_b(a.y, b.y), copy_keeping_b(a.z, b.z),
                        copy_keeping_b(a.w, b.w));
  }
  for (std::size_t i = groups * 4 + first; i < n; i += stride) C[i] = copy_keeping_b(A[i], B[i]);
}

int multiprocessors() {
  static const int count = [] {
    int device = 0;
    int sms = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    return sms > 0 ? sms : 1;
  }();
  return count;
}

} // namespace

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  const int threads = 256;
  // Enough resident blocks to fill every SM, no more than the groups of 4 need, and at least one for
  // the scalar tail.
  const std::size_t needed = (static_cast<std::size_t>(N) / 4) / threads + 1;
  const std::size_t wanted = static_cast<std::size_t>(multiprocessors()) * 8;
  const unsigned blocks = static_cast<unsigned>(needed < wanted ? needed : wanted);
  baseline_device_copy<<<blocks, threads>>>(A, B, C, static_cast<std::size_t>(N));
  cudaDeviceSynchronize();
}
