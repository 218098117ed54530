// Run-time error: the kernel adds into a host variable.
//
// What it teaches: a kernel can only touch device memory (or memory mapped for it). `&host_sum` is an
// address in the CPU's memory; on the GPU it points nowhere, and the first atomicAdd to it is an
// illegal memory access, which ends the kernel and leaves the CUDA context unusable. The sum must live
// in device memory (cudaMalloc) and come back with cudaMemcpy if the host needs it.
//
// Verdict: run-time error (an illegal memory access), on every case.
#include <cuda_runtime.h>

#include <cstddef>

namespace {

float host_sum = 0.0f; // BUG: host memory, handed to a kernel

constexpr int threads = 256;

__global__ void sum_squares(const float* input, std::size_t n, float* squares) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  if (i < n) atomicAdd(squares, input[i] * input[i]);
}

__global__ void normalise(const float* input, float gamma, float beta, float* output, std::size_t n, float eps,
                          float squares) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  if (i < n) output[i] = gamma * input[i] / sqrtf(squares / static_cast<float>(n) + eps) + beta;
}

} // namespace

extern "C" void solve(const float* input, float gamma, float beta, float* output, int N, float eps) {
  const std::size_t n = static_cast<std::size_t>(N);
  const unsigned blocks = static_cast<unsigned>((n + threads - 1) / threads);
  host_sum = 0.0f;
  sum_squares<<<blocks, threads>>>(input, n, &host_sum);
  cudaDeviceSynchronize();
  normalise<<<blocks, threads>>>(input, gamma, beta, output, n, eps, host_sum);
  cudaDeviceSynchronize();
}
