// Wrong answer: the float4 kernel of accepted/03_float4_scalar_tail.cu without its scalar tail.
//
// What it teaches: vectorising divides N by 4, and the remainder is still data. The loop covers the
// first 4·(N/4) elements and stops; when N is not a multiple of 4 the last N % 4 elements of C are never
// written and keep the garbage the judge put there. Sizes that are multiples of 4 (the samples, 2^24,
// 25,000,000) all pass, which is exactly why this bug survives casual testing.
//
// Verdict: wrong answer, on n_1 (N / 4 = 0: nothing is written at all), n_1001 and n_2pow24_plus_3.
// No access leaves the buffers: it is wrong, not a crash.
#include <cuda_runtime.h>

#include <cstddef>

__global__ void vector_add_float4_no_tail(const float* A, const float* B, float* C, int N) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t groups = static_cast<std::size_t>(N) / 4;
  const auto* a4 = reinterpret_cast<const float4*>(A);
  const auto* b4 = reinterpret_cast<const float4*>(B);
  auto* c4 = reinterpret_cast<float4*>(C);
  for (std::size_t g = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; g < groups; g += stride) {
    const float4 a = a4[g];
    const float4 b = b4[g];
    c4[g] = make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
  }
  // BUG: elements 4·(N/4) .. N-1 are left out.
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  const int threads = 256;
  // At least one block even when N / 4 is 0: an empty grid is a launch error, not a wrong answer.
  const int blocks = (N / 4 + threads - 1) / threads + 1;
  vector_add_float4_no_tail<<<blocks, threads>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
