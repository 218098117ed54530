#include "feedback.hpp"

#include <fmt/format.h>

namespace judge {

std::string timing_feedback(const timing_summary& timing) {
  // 50 µs of slack: launches and the synchronisation cost host time however good the kernel is.
  if (timing.host_median_ms > 2.0 * timing.median_ms + 0.05)
    return fmt::format("solve() takes {:.3f} ms on the host but only {:.3f} ms on the GPU: cudaMalloc, "
                       "copies or synchronisation inside solve() cost more than the kernel",
                       timing.host_median_ms, timing.median_ms);
  return "";
}

} // namespace judge
