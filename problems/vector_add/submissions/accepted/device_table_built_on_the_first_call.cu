// Honest, unusual: a 4 MiB __device__ table (one scale per element slot, all 1.0) is built by a kernel on
// the first call of solve() and only read afterwards, as a precomputed twiddle or lookup table is.
//
// Verdict: accepted, with its time. The recorded call is a later one, which issues no build: the
// replaying runner puts back the table as the recorded call found it, before every sample (device
// variables and earlier allocations together up to 48 MiB, the smallest first), from a copy it keeps
// on the device. Without it the table would read 0 in the replay and every timed output would be A.
#include <cuda_runtime.h>

namespace {
constexpr int table_size = 1 << 20; // 4 MiB of floats
__device__ float scale_table[table_size];

__global__ void build_table() {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < table_size; i += gridDim.x * blockDim.x)
    scale_table[i] = 1.0f;
}

__global__ void add_scaled(const float* A, const float* B, float* C, int N) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) C[i] = A[i] + B[i] * scale_table[i & (table_size - 1)];
}
} // namespace

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  static bool built = false;
  if (!built) {
    build_table<<<256, 256>>>();
    built = true;
  }
  const int threads = 256;
  add_scaled<<<(N + threads - 1) / threads, threads>>>(A, B, C, N);
  cudaDeviceSynchronize();
}
