// CPU reference of rms_norm: the sum of squares in double, then every output in double, with the very
// floats gamma, beta and eps that solve() received.
#include "cpu_reference.h"

#include <cmath>
#include <cstdint>
#include <vector>

JUDGE_CPU_REFERENCE(rms_norm, args) {
  const auto input = args.input("input");
  auto output = args.output("output");
  const std::int64_t n = args.size("N");
  const double gamma = args.scalar("gamma"), beta = args.scalar("beta"), eps = args.scalar("eps");
  const std::int64_t chunks = 64;
  std::vector<double> partial(chunks, 0.0);
  judge_reference::parallel_for(chunks, args.threads, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t c = begin; c < end; ++c) {
      double s = 0;
      for (std::int64_t i = n * c / chunks; i < n * (c + 1) / chunks; ++i)
        s += static_cast<double>(input[i]) * static_cast<double>(input[i]);
      partial[c] = s;
    }
  });
  double squares = 0;
  for (const double p : partial) squares += p;
  const double rms = std::sqrt(squares / static_cast<double>(n) + eps);
  judge_reference::parallel_for(n, args.threads, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t i = begin; i < end; ++i) output[i] = gamma * static_cast<double>(input[i]) / rms + beta;
  });
}
