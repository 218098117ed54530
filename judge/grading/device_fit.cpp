#include "judge/grading/device_fit.hpp"

#include <fmt/format.h>

namespace judge {

// The runner holds each buffer several times (two alternating sets for timing, pristine copies of the
// inputs, reference outputs) plus the L2 flush buffer.
std::string device_memory_shortfall(const problem_spec& spec, const test_case& c, const device_info& device) {
  if (device.memory_bytes <= 0) return "";
  double bytes = 0;
  for (const auto& [name, count] : buffer_counts(spec, c)) bytes += 4.0 * static_cast<double>(count) * sizeof(float);
  bytes += 3.0 * static_cast<double>(device.l2_bytes) + (256 << 20);
  if (bytes <= static_cast<double>(device.memory_bytes)) return "";
  return fmt::format("case {} needs about {:.1f} GiB of device memory, more than the {:.1f} GiB of the {}; "
                     "reduce its sizes in cases.yaml",
                     c.name, bytes / (1 << 30), static_cast<double>(device.memory_bytes) / (1 << 30), device.name);
}

} // namespace judge
