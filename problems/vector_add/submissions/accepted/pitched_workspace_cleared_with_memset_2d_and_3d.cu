// Honest, unusual: a pitched 2D workspace (cudaMallocPitch) and a 3D one (cudaMalloc3D), cleared every
// call with cudaMemset2D and cudaMemset3D to a byte pattern that each element of the sum is checked
// against (a guard word that must read 0x2a2a2a2a, as a staging area that was cleared is).
//
// Verdict: accepted, with its time. Pitched allocations are allocations of pitch x rows bytes to the
// replay, and cudaMemset2D and cudaMemset3D are replayed as 2D memsets: the timed samples clear the
// workspace as the checked calls did.
#include <cuda_runtime.h>

#include <cmath>

namespace {
constexpr unsigned pattern = 0x2a2a2a2au;
constexpr int rows = 64, row_words = 500; // the 2D workspace: 64 rows of 500 words, pitched

__global__ void add_if_cleared(const float* A, const float* B, float* C, int N, const unsigned* plane,
                               std::size_t pitch, cudaPitchedPtr volume) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  const int r = i % rows, w = (i / rows) % row_words;
  const unsigned flat = *reinterpret_cast<const unsigned*>(reinterpret_cast<const char*>(plane) + r * pitch + 4 * w);
  const int z = i % 4, y = (i / 4) % 8, x = (i / 32) % 100;
  const char* slice = static_cast<const char*>(volume.ptr) + z * volume.pitch * volume.ysize;
  const unsigned deep = *reinterpret_cast<const unsigned*>(slice + y * volume.pitch + 4 * x);
  C[i] = flat == pattern && deep == pattern ? A[i] + B[i] : NAN;
}
} // namespace

extern "C" void solve(const float* A, const float* B, float* C, int N) {
  static unsigned* plane = nullptr;
  static std::size_t pitch = 0;
  static cudaPitchedPtr volume{};
  const cudaExtent extent = make_cudaExtent(100 * sizeof(unsigned), 8, 4);
  if (!plane) {
    cudaMallocPitch(reinterpret_cast<void**>(&plane), &pitch, row_words * sizeof(unsigned), rows);
    cudaMalloc3D(&volume, extent);
  }
  cudaMemset2D(plane, pitch, 0x2a, row_words * sizeof(unsigned), rows);
  cudaMemset3D(volume, 0x2a, extent);
  const int threads = 256;
  add_if_cleared<<<(N + threads - 1) / threads, threads>>>(A, B, C, N, plane, pitch, volume);
  cudaDeviceSynchronize();
  // The next call must find the workspace cleared by its own memsets, not by this one.
  cudaMemset2D(plane, pitch, 0, row_words * sizeof(unsigned), rows);
  cudaMemset3D(volume, 0, extent);
}
