// CPU reference of sort: std::sort of the values solve() received.
#include "cpu_reference.h"

#include <algorithm>
#include <vector>

JUDGE_CPU_REFERENCE(sort, args) {
  const auto data = args.input("data");
  std::vector<float> sorted(data.begin(), data.end());
  std::sort(sorted.begin(), sorted.end());
  auto out = args.output("data");
  for (std::size_t i = 0; i < sorted.size(); ++i) out[i] = sorted[i];
}
