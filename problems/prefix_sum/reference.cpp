// CPU reference of prefix_sum: the running sum in double, in order. Exact to about 2^-53 of the sum of
// magnitudes, far inside the tolerance of a float scan.
#include "cpu_reference.h"

#include <cstdint>

JUDGE_CPU_REFERENCE(prefix_sum, args) {
  const auto input = args.input("input");
  auto output = args.output("output");
  double sum = 0;
  for (std::size_t i = 0; i < input.size(); ++i) {
    sum += static_cast<double>(input[i]);
    output[i] = sum;
  }
}
