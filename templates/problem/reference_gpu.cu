// GPU reference of @NAME@: checks every timed sample inside the runner. Buffers and sizes arrive in
// signature order: buffers[0] = input, buffers[1] = output, sizes[0] = N. Every kernel here is extern "C"
// and named judge_reference_*, so the harness tells it from the solution's (docs/problem-format.md).
#include <cuda_runtime.h>

extern "C" __global__ void judge_reference_ @NAME @(const float* input, float* output, int n) {
  const long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (i < n) output[i] = input[i];
}

extern "C" void judge_reference_solve(void* const* buffers, const int* sizes, const float* /*scalars*/) {
  const int n = sizes[0];
  judge_reference_ @NAME @<<<n / 256 + (n % 256 != 0), 256, 0, cudaStreamLegacy>>>(
      static_cast<const float*>(buffers[0]), static_cast<float*>(buffers[1]), n);
}
