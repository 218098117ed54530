// CPU reference of reduction: the sum in double, exact to about 2^-53 of the sum of magnitudes, which
// is far inside the tolerance a float sum is given.
#include "cpu_reference.h"

#include <cstdint>
#include <vector>

JUDGE_CPU_REFERENCE(reduction, args) {
  const auto input = args.input("input");
  const std::int64_t n = args.size("N");
  // One partial sum per chunk (the chunks are contiguous), added in chunk order.
  const std::int64_t chunks = 64;
  std::vector<double> partial(chunks, 0.0);
  judge_reference::parallel_for(chunks, args.threads, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t c = begin; c < end; ++c) {
      double sum = 0;
      for (std::int64_t i = n * c / chunks; i < n * (c + 1) / chunks; ++i) sum += static_cast<double>(input[i]);
      partial[c] = sum;
    }
  });
  double total = 0;
  for (const double p : partial) total += p;
  args.output("output")[0] = total;
}
