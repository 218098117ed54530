// GPU reference of vector_add, run inside the runner to check the outputs of timed calls: the sum in
// double, rounded to float once. Its kernel's name starts with judge_reference_ (and is not mangled) so
// that it can be told apart from the solution's kernels.
#include <cuda_runtime.h>

#include <cstddef>

extern "C" __global__ void judge_reference_vector_add(const float* __restrict__ A, const float* __restrict__ B,
                                                      float* __restrict__ C, int N) {
  // 64-bit index: for N near INT_MAX, blockIdx.x · blockDim.x passes it in the last block.
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < static_cast<std::size_t>(N)) C[i] = static_cast<float>(static_cast<double>(A[i]) + static_cast<double>(B[i]));
}

/// The harness's entry point: buffers in signature order (A, B, C), sizes in signature order (N).
/// Launches on the legacy default stream and returns; the harness synchronises.
extern "C" void judge_reference_solve(void* const* buffers, const int* sizes, const float* /*scalars*/) {
  const int n = sizes[0];
  const int threads = 256;
  const int blocks = n / threads + (n % threads != 0); // n + threads - 1 could overflow
  judge_reference_vector_add<<<blocks, threads, 0, cudaStreamLegacy>>>(
      static_cast<const float*>(buffers[0]), static_cast<const float*>(buffers[1]), static_cast<float*>(buffers[2]), n);
}
