#include "judge/grading/case_size.hpp"

#include <algorithm>

namespace judge {

bool aligned_sizes(const std::vector<std::int64_t>& sizes) {
  return !sizes.empty() &&
         std::all_of(sizes.begin(), sizes.end(), [](std::int64_t s) { return s % tail_free_multiple == 0; });
}

double size_volume(const std::vector<std::int64_t>& sizes) {
  double volume = 1;
  for (const std::int64_t s : sizes) volume *= static_cast<double>(s);
  return volume;
}

} // namespace judge
