// CPU reference of spmv: A's nonzeros are counted first (a case whose nnz does not match its matrix is
// the package's mistake, and the message says what to give A), then every row's sum of products in
// double.
#include "cpu_reference.h"

#include <cstdint>
#include <stdexcept>
#include <string>

JUDGE_CPU_REFERENCE(spmv, args) {
  const auto a = args.input("A");
  const auto x = args.input("x");
  auto y = args.output("y");
  const std::int64_t m = args.size("M"), n = args.size("N"), nnz = args.size("nnz");
  std::int64_t nonzeros = 0;
  for (const float v : a) nonzeros += v != 0.0f;
  if (nonzeros != nnz)
    throw std::invalid_argument(
        "A has " + std::to_string(nonzeros) + " nonzero elements but nnz = " + std::to_string(nnz) +
        ": give the case A: {kind: sparse, nonzeros: " + std::to_string(nnz) + ", magnitude: ...}");
  judge_reference::parallel_for(m, args.threads, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i) {
      const float* row = a.data() + i * n;
      double sum = 0;
      for (std::int64_t j = 0; j < n; ++j) sum += static_cast<double>(row[j]) * static_cast<double>(x[j]);
      y[i] = sum;
    }
  });
}
