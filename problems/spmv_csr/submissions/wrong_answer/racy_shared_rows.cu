// Wrong answer: step 3 with plain `+=` for the rows cut between threads.
//
// What it teaches: when a row's nonzeros are split over several threads, each thread's piece of the
// sum must be added with an atomic. `y[row] += sum` reads and writes y[row] as two steps; two threads
// finishing pieces of the same row at once both read the old value, and one piece is lost. Matrices
// whose rows are all shorter than a thread's share survive more often, which is why it looks right.
//
// Verdict: wrong answer, on the cases with long rows (it is a race: which cases fail can vary).
#include <cuda_runtime.h>

#include <cstddef>

namespace {

constexpr int items_per_thread = 8;
constexpr int threads = 256;

__global__ void spmv_merge_path_racy(const int* __restrict__ row_offsets, const int* __restrict__ columns,
                                     const float* __restrict__ values, const float* __restrict__ x, float* y, int m,
                                     int nnz) {
  const long long total = static_cast<long long>(m) + nnz;
  const long long first = (static_cast<long long>(blockIdx.x) * threads + threadIdx.x) * items_per_thread;
  if (first >= total) return;
  const int* row_ends = row_offsets + 1;
  long long low = first - nnz > 0 ? first - nnz : 0, high = first < m ? first : m;
  while (low < high) {
    const long long pivot = (low + high) / 2;
    if (row_ends[pivot] <= first - pivot - 1)
      low = pivot + 1;
    else
      high = pivot;
  }
  int row = static_cast<int>(low), nz = static_cast<int>(first - low);
  bool shared_row = nz > row_offsets[row];
  float sum = 0.0f;
  for (int item = 0; item < items_per_thread && row < m; ++item) {
    if (nz < row_ends[row]) {
      sum += values[nz] * x[columns[nz]];
      ++nz;
    } else {
      if (shared_row)
        *static_cast<volatile float*>(&y[row]) += sum; // BUG: not atomic
      else
        y[row] = sum;
      sum = 0.0f;
      ++row;
      shared_row = false;
    }
  }
  if (row < m && nz > row_offsets[row]) *static_cast<volatile float*>(&y[row]) += sum; // BUG: not atomic
}

} // namespace

extern "C" void solve(const int* row_offsets, const int* columns, const float* values, const float* x, float* y, int M,
                      int N, int nnz) {
  cudaMemsetAsync(y, 0, static_cast<std::size_t>(M) * sizeof(float));
  const long long pieces = (static_cast<long long>(M) + nnz + items_per_thread - 1) / items_per_thread;
  spmv_merge_path_racy<<<static_cast<unsigned>((pieces + threads - 1) / threads), threads>>>(row_offsets, columns,
                                                                                             values, x, y, M, nnz);
  (void)N;
  cudaDeviceSynchronize();
}
