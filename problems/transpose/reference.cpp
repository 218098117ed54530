// CPU reference of transpose: output[j][i] = input[i][j], widened to double (exact: a transpose does
// no arithmetic).
#include "cpu_reference.h"

#include <cstdint>

JUDGE_CPU_REFERENCE(transpose, args) {
  const std::int64_t rows = args.size("rows");
  const std::int64_t cols = args.size("cols");
  const float* input = args.input("input").data();
  double* output = args.output("output").data();

  // Split over the rows of the output (the columns of the input): each thread writes a contiguous
  // range of the output.
  judge_reference::parallel_for(cols, args.threads, [=](std::int64_t j_begin, std::int64_t j_end) {
    for (std::int64_t j = j_begin; j < j_end; ++j)
      for (std::int64_t i = 0; i < rows; ++i) output[j * rows + i] = static_cast<double>(input[i * cols + j]);
  });
}
