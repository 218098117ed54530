// CPU reference of conv2d: every output's sum of products in double, rows split across threads.
#include "cpu_reference.h"

#include <cstdint>

JUDGE_CPU_REFERENCE(conv2d, args) {
  const float* in = args.input("input").data();
  const float* k = args.input("kernel").data();
  double* out = args.output("output").data();
  const std::int64_t ir = args.size("input_rows"), ic = args.size("input_cols");
  const std::int64_t kr = args.size("kernel_rows"), kc = args.size("kernel_cols");
  const std::int64_t orows = ir - kr + 1, ocols = ic - kc + 1;
  judge_reference::parallel_for(orows, args.threads, [=](std::int64_t begin, std::int64_t end) {
    for (std::int64_t r = begin; r < end; ++r)
      for (std::int64_t c = 0; c < ocols; ++c) {
        double sum = 0;
        for (std::int64_t i = 0; i < kr; ++i)
          for (std::int64_t j = 0; j < kc; ++j)
            sum += static_cast<double>(in[(r + i) * ic + c + j]) * static_cast<double>(k[i * kc + j]);
        out[r * ocols + c] = sum;
      }
  });
}
