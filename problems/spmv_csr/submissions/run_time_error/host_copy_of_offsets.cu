// Run-time error: the row offsets copied to the host, and the host copy handed to the kernel.
//
// What it teaches: a kernel dereferences device addresses only. Copying row_offsets to the host to
// look at the rows is fine; passing that host array to a kernel is not: the first load from it is an
// illegal memory access, which ends the kernel and leaves the CUDA context unusable.
//
// Verdict: run-time error (an illegal memory access), on every case.
#include <cuda_runtime.h>

#include <cstddef>
#include <vector>

__global__ void spmv_thread_per_row(const int* row_offsets, const int* columns, const float* values, const float* x,
                                    float* y, int M) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= static_cast<std::size_t>(M)) return;
  float sum = 0.0f;
  for (int k = row_offsets[i]; k < row_offsets[i + 1]; ++k) sum += values[k] * x[columns[k]];
  y[i] = sum;
}

extern "C" void solve(const int* row_offsets, const int* columns, const float* values, const float* x, float* y, int M,
                      int N, int nnz) {
  static std::vector<int> host;
  host.resize(static_cast<std::size_t>(M) + 1);
  cudaMemcpy(host.data(), row_offsets, host.size() * sizeof(int), cudaMemcpyDeviceToHost);
  // BUG: host.data() is host memory; the kernel needs row_offsets, the device array.
  spmv_thread_per_row<<<(M + 255) / 256, 256>>>(host.data(), columns, values, x, y, M);
  (void)N;
  (void)nnz;
  cudaDeviceSynchronize();
}
