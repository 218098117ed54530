// GPU reference of spmv_csr, run inside the runner to check timed calls: one thread per row, the row's sum
// in double, rounded once. Plain and slow on long rows, but obviously right. Kernel names start with
// judge_reference_.
#include <cuda_runtime.h>

#include <cstddef>

extern "C" __global__ void judge_reference_spmv_csr(const int* offsets, const int* columns, const float* values,
                                                const float* x, float* y, int m) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= static_cast<std::size_t>(m)) return;
  double sum = 0;
  for (int k = offsets[i]; k < offsets[i + 1]; ++k)
    sum += static_cast<double>(values[k]) * static_cast<double>(x[columns[k]]);
  y[i] = static_cast<float>(sum);
}

/// Buffers (row_offsets, columns, values, x, y), sizes (M, N, nnz).
extern "C" void judge_reference_solve(void* const* buffers, const int* sizes, const float* /*scalars*/) {
  const int m = sizes[0];
  judge_reference_spmv_csr<<<(m + 255) / 256, 256, 0, cudaStreamLegacy>>>(
      static_cast<const int*>(buffers[0]), static_cast<const int*>(buffers[1]), static_cast<const float*>(buffers[2]),
      static_cast<const float*>(buffers[3]), static_cast<float*>(buffers[4]), m);
}
