// Honest, unusual: every block allocates 64 KiB of working space with in-kernel malloc(), which needs a
// device heap larger than the driver's 8 MiB default when thousands of blocks run at once, so solve()
// raises it with cudaDeviceSetLimit(cudaLimitMallocHeapSize) on its first call. A block whose malloc()
// fails writes NaN.
//
// Verdict: accepted, with its time. The recording carries the device limits solve() set (the heap, the
// stack, the printf buffer), and the replaying runner sets them before any replayed launch.
#include <cuda_runtime.h>

#include <cmath>

namespace {
constexpr int threads = 256;
constexpr int floats_per_block = 16384; // 64 KiB

__global__ void add_through_heap(const float* A, const float* B, float* C, int N) {
  __shared__ float* space;
  if (threadIdx.x == 0) space = static_cast<float*>(malloc(floats_per_block * sizeof(float)));
  __syncthreads();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (space == nullptr) {
    if (i < N) C[i] = NAN;
    return;
  }
  for (int k = threadIdx.x; k < floats_per_block; k += blockDim.x) space[k] = 0.0f;
  __syncthreads();
  if (i < N) {
    space[threadIdx.x] = A[i] + B[i];
    C[i] = space[threadIdx.x];
  }
  __syncthreads();
  if (threadIdx.x == 0) free(space);
}
} // namespace

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  static bool heap_set = false;
  if (!heap_set) {
    cudaDeviceSetLimit(cudaLimitMallocHeapSize, std::size_t{1} << 30);
    heap_set = true;
  }
  add_through_heap<<<(N + threads - 1) / threads, threads>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
