// CPU reference of softmax: the maximum, then exp(x - max) and its sum in double, then each quotient.
#include "cpu_reference.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

JUDGE_CPU_REFERENCE(softmax, args) {
  const auto input = args.input("input");
  auto output = args.output("output");
  const std::int64_t n = args.size("N");
  const double m = static_cast<double>(*std::max_element(input.begin(), input.end()));
  const std::int64_t chunks = 64;
  std::vector<double> partial(chunks, 0.0);
  judge_reference::parallel_for(chunks, args.threads, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t c = begin; c < end; ++c) {
      double s = 0;
      for (std::int64_t i = n * c / chunks; i < n * (c + 1) / chunks; ++i) {
        output[i] = std::exp(static_cast<double>(input[i]) - m);
        s += output[i];
      }
      partial[c] = s;
    }
  });
  double sum = 0;
  for (const double p : partial) sum += p;
  judge_reference::parallel_for(n, args.threads, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i) output[i] /= sum;
  });
}
