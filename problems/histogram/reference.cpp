// CPU reference of histogram: each thread counts a contiguous share into its own bins, and the shares
// are added. Counts are exact; a value outside [0, num_bins) (which the cases never hold) is an error.
#include "cpu_reference.h"

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

JUDGE_CPU_REFERENCE(histogram, args) {
  const auto input = args.input_int("input");
  const std::int64_t n = args.size("N");
  const std::int64_t bins = args.size("num_bins");
  const std::int64_t shares = 64;
  std::vector<std::vector<std::int64_t>> counts(shares, std::vector<std::int64_t>(bins, 0));
  std::vector<std::int64_t> bad(shares, -1);
  judge_reference::parallel_for(shares, args.threads, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t s = begin; s < end; ++s)
      for (std::int64_t i = n * s / shares; i < n * (s + 1) / shares; ++i) {
        const std::int32_t v = input[i];
        if (v < 0 || v >= bins) {
          bad[s] = i;
          break;
        }
        ++counts[s][v];
      }
  });
  for (const std::int64_t i : bad)
    if (i >= 0)
      throw std::invalid_argument("input[" + std::to_string(i) + "] = " + std::to_string(input[i]) +
                                  " is outside [0, num_bins): the case's distribution must fit its bins");
  auto histogram = args.output("histogram");
  for (std::int64_t b = 0; b < bins; ++b) {
    std::int64_t total = 0;
    for (std::int64_t s = 0; s < shares; ++s) total += counts[s][b];
    histogram[b] = static_cast<double>(total);
  }
}
