// Baseline of @NAME@: a device-to-device copy of the same bytes, timed like a solution.
#include <cuda_runtime.h>

extern "C" void solve(const float* input, float* output, int N) {
  cudaMemcpy(output, input, static_cast<size_t>(N) * sizeof(float), cudaMemcpyDeviceToDevice);
}
