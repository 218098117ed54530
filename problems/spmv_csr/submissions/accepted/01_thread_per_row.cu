// Ladder step 1: one thread per row ("scalar CSR").
//
// What it teaches: how CSR is read. Thread i finds its row's nonzeros between row_offsets[i] and
// row_offsets[i+1], gathers x[columns[k]] for each and sums the products; an empty row's loop does not
// run and y[i] = 0 is written all the same.
//
// Why it is slow: neighbouring threads walk neighbouring rows, so at each step a warp's 32 loads of
// `values` and `columns` are 32 addresses a row length apart (uncoalesced), and a warp finishes only
// when its longest row does: one row of 200,000 nonzeros keeps 31 threads idle for all of it (load
// imbalance).
//
// Verdict: accepted.
#include <cuda_runtime.h>

#include <cstddef>

__global__ void spmv_thread_per_row(const int* __restrict__ row_offsets, const int* __restrict__ columns,
                                    const float* __restrict__ values, const float* __restrict__ x,
                                    float* __restrict__ y, int M) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= static_cast<std::size_t>(M)) return;
  float sum = 0.0f;
  for (int k = row_offsets[i]; k < row_offsets[i + 1]; ++k) sum += values[k] * x[columns[k]];
  y[i] = sum;
}

extern "C" void solve(const int* row_offsets, const int* columns, const float* values, const float* x, float* y, int M,
                      int N, int nnz) {
  const int threads = 256;
  spmv_thread_per_row<<<(M + threads - 1) / threads, threads>>>(row_offsets, columns, values, x, y, M);
  (void)N;
  (void)nnz;
  cudaDeviceSynchronize();
}
