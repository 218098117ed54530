#include "judge/report/plausibility_text.hpp"

#include <fmt/format.h>

namespace judge {
namespace {

/// [ms] as the terminal report writes times: µs below a millisecond.
std::string duration_text(double ms) {
  if (ms < 1.0) return fmt::format("{:.1f} us", ms * 1000.0);
  return fmt::format("{:.3f} ms", ms);
}

/// "1.72e+10 FLOP at the FP32 peak of 66908 GFLOPS".
std::string floor_reason(const implausible_time& t) {
  switch (t.ceiling) {
  case speed_ceiling::fp32_peak:
    return fmt::format("{:.3g} FLOP at the FP32 peak of {:.0f} GFLOPS", t.work, t.peak);
  case speed_ceiling::dram_peak:
    return fmt::format("{:.3g} bytes beyond what L2 holds, at the DRAM peak of {:.0f} GB/s", t.work, t.peak);
  case speed_ceiling::tf32_tensor_peak:
    return fmt::format("{:.3g} FLOP at the tensor cores' dense TF32 peak of {:.0f} GFLOPS", t.work, t.peak);
  case speed_ceiling::measured_bandwidth:
    return fmt::format("{:.3g} bytes beyond what L2 holds, at 1.25 x the measured copy bandwidth: {:.0f} GB/s", t.work,
                       t.peak);
  }
  return "";
}

} // namespace

std::string implausible_text(const implausible_time& t) {
  return fmt::format("median {} is below the physical floor of {} for this case on this GPU ({}): not ranked, "
                     "flagged for the instructor",
                     duration_text(t.median_ms), duration_text(t.floor_ms), floor_reason(t));
}

} // namespace judge
