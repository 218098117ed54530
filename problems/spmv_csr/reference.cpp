// CPU reference of spmv_csr: the structure is checked first (a case whose distributions do not describe
// a valid CSR matrix is the package's mistake, and the message says which array is wrong and where),
// then every row's sum of products in double.
#include "cpu_reference.h"

#include <cstdint>
#include <stdexcept>
#include <string>

JUDGE_CPU_REFERENCE(spmv_csr, args) {
  const auto offsets = args.input_int("row_offsets");
  const auto columns = args.input_int("columns");
  const auto values = args.input("values");
  const auto x = args.input("x");
  auto y = args.output("y");
  const std::int64_t m = args.size("M"), n = args.size("N"), nnz = args.size("nnz");
  if (offsets[0] != 0 || offsets[m] != nnz)
    throw std::invalid_argument("row_offsets must run from 0 to nnz = " + std::to_string(nnz) + ", but runs from " +
                                std::to_string(offsets[0]) + " to " + std::to_string(offsets[m]) +
                                ": give the case row_offsets: {kind: offsets, total: " + std::to_string(nnz) + "}");
  for (std::int64_t i = 0; i < m; ++i)
    if (offsets[i + 1] < offsets[i]) throw std::invalid_argument("row_offsets decrease at row " + std::to_string(i));
  for (std::int64_t k = 0; k < nnz; ++k)
    if (columns[k] < 0 || columns[k] >= n)
      throw std::invalid_argument(
          "columns[" + std::to_string(k) + "] = " + std::to_string(columns[k]) +
          " is outside [0, N = " + std::to_string(n) +
          "): give the case columns: {kind: uniform_int, low: 0, high: " + std::to_string(n - 1) + "}");
  judge_reference::parallel_for(m, args.threads, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i) {
      double sum = 0;
      for (std::int64_t k = offsets[i]; k < offsets[i + 1]; ++k)
        sum += static_cast<double>(values[k]) * static_cast<double>(x[columns[k]]);
      y[i] = sum;
    }
  });
}
