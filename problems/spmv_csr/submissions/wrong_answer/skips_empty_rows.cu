// Wrong answer: step 1 returning early on an empty row, without writing its 0.
//
// What it teaches: an empty row's product is 0, and 0 must be written: y arrives holding garbage (the
// judge's poison), not zeros. Matrices without empty rows pass, which is most hand-made tests.
//
// Verdict: wrong answer, on the cases with empty rows (mostly_empty, skewed ones).
#include <cuda_runtime.h>

#include <cstddef>

__global__ void spmv_skipping_empty(const int* __restrict__ row_offsets, const int* __restrict__ columns,
                                    const float* __restrict__ values, const float* __restrict__ x,
                                    float* __restrict__ y, int M) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= static_cast<std::size_t>(M)) return;
  const int begin = row_offsets[i], end = row_offsets[i + 1];
  if (begin == end) return; // BUG: y[i] = 0 is never written
  float sum = 0.0f;
  for (int k = begin; k < end; ++k) sum += values[k] * x[columns[k]];
  y[i] = sum;
}

extern "C" void solve(const int* row_offsets, const int* columns, const float* values, const float* x, float* y, int M,
                      int N, int nnz) {
  spmv_skipping_empty<<<(M + 255) / 256, 256>>>(row_offsets, columns, values, x, y, M);
  (void)N;
  (void)nnz;
  cudaDeviceSynchronize();
}
