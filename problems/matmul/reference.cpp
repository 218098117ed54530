// CPU reference of matmul: C = A·B with every product and sum in double. A product of two floats is
// exact in double, so the only rounding is in the additions, orders of magnitude below the tolerance.
#include "cpu_reference.h"

#include <algorithm>
#include <cstdint>

JUDGE_CPU_REFERENCE(matmul, args) {
  const std::int64_t m = args.size("M");
  const std::int64_t n = args.size("N");
  const std::int64_t k = args.size("K");
  const float* a = args.input("A").data();
  const float* b = args.input("B").data();
  double* c = args.output("C").data();

  judge_reference::parallel_for(m, args.threads, [=](std::int64_t row_begin, std::int64_t row_end) {
    for (std::int64_t i = row_begin; i < row_end; ++i) {
      // Row i of C accumulates A[i][p] · (row p of B) for p in order: the inner loop walks B and C
      // contiguously (i, p, j order), where the textbook i, j, p order strides through B by K.
      double* c_row = c + i * k;
      std::fill(c_row, c_row + k, 0.0);
      for (std::int64_t p = 0; p < n; ++p) {
        const double a_ip = a[i * n + p];
        const float* b_row = b + p * k;
        for (std::int64_t j = 0; j < k; ++j) c_row[j] += a_ip * b_row[j];
      }
    }
  });
}
