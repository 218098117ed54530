// GPU reference of spmv, run inside the runner to check timed calls: one warp per row, each lane's share
// of the row summed in double, the lanes' sums added in double by shuffles and rounded once. Kernel
// names start with judge_reference_.
#include <cuda_runtime.h>

#include <cstddef>

extern "C" __global__ void judge_reference_spmv(const float* A, const float* x, float* y, int m, int n) {
  const std::size_t row = (static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (row >= static_cast<std::size_t>(m)) return; // whole warps leave together
  const float* a = A + row * static_cast<std::size_t>(n);
  double sum = 0;
  for (int j = lane; j < n; j += 32) sum += static_cast<double>(a[j]) * static_cast<double>(x[j]);
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  if (lane == 0) y[row] = static_cast<float>(sum);
}

/// Buffers (A, x, y), sizes (M, N, nnz).
extern "C" void judge_reference_solve(void* const* buffers, const int* sizes, const float* /*scalars*/) {
  const int m = sizes[0], n = sizes[1];
  const int threads = 256; // 8 rows per block
  const unsigned blocks = static_cast<unsigned>((static_cast<std::size_t>(m) * 32 + threads - 1) / threads);
  judge_reference_spmv<<<blocks, threads, 0, cudaStreamLegacy>>>(static_cast<const float*>(buffers[0]),
                                                                 static_cast<const float*>(buffers[1]),
                                                                 static_cast<float*>(buffers[2]), m, n);
}
