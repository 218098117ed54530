#include "judge/grading/feedback.hpp"

#include <fmt/format.h>

namespace judge {

bool host_time_dominates(const timing_summary& timing) {
  // 50 µs of slack: launches and the synchronisation cost host time however good the kernel is.
  return timing.host_median_ms > 2.0 * timing.median_ms + 0.05;
}

std::string timing_feedback(const timing_summary& timing) {
  if (host_time_dominates(timing))
    return fmt::format("solve() takes {:.3f} ms on the host but only {:.3f} ms on the GPU: cudaMalloc, "
                       "copies or synchronisation inside solve() cost more than the kernel",
                       timing.host_median_ms, timing.median_ms);
  return "";
}

std::string method_feedback(const timing_summary& solution, const timing_summary& baseline) {
  if (solution.method == baseline.method) return "";
  return fmt::format("timed with {} but the baseline with {}: the two times are not comparable, so there "
                     "is no % of baseline",
                     solution.method, baseline.method);
}

std::string join_feedback(const std::string& a, const std::string& b) {
  if (a.empty()) return b;
  if (b.empty()) return a;
  return a + "; " + b;
}

} // namespace judge
