#include "judge/grading/plausibility.hpp"

#include "judge/run/tensor_peak.hpp"

#include <algorithm>
#include <utility>

namespace judge {
namespace {

/// The measured device-to-device copy reaches about 80–90% of the DRAM peak: 1.25 × it is at or above
/// the peak, so the floor it gives is never above the true one.
constexpr double measured_to_peak = 1.25;

/// [ms] `work` at `per_second_giga` (GFLOPS or GB/s).
double least_ms(double work, double per_second_giga) { return work / (per_second_giga * 1e9) * 1e3; }

} // namespace

std::optional<implausible_time> implausible(double median_ms, const case_work& work, const device_info& device) {
  std::optional<implausible_time> worst;
  const auto consider = [&](speed_ceiling ceiling, double amount, double peak) {
    if (amount <= 0 || peak <= 0) return;
    const double floor_ms = least_ms(amount, peak);
    if (median_ms >= floor_ms) return;
    if (!worst || floor_ms > worst->floor_ms) worst = implausible_time{median_ms, floor_ms, ceiling, amount, peak};
  };
  if (work.tensor_cores_allowed && work.uses_tensor_cores.value_or(true))
    consider(speed_ceiling::tf32_tensor_peak, work.flops, tf32_tensor_peak_gflops(device));
  else
    consider(speed_ceiling::fp32_peak, work.flops, device.fp32_peak_gflops);
  const double l2_bytes = static_cast<double>(device.l2_bytes) * (work.cold_l2 ? 1 : 2);
  const double dram_bytes = work.bytes - l2_bytes;
  if (device.dram_peak_gbps > 0)
    consider(speed_ceiling::dram_peak, dram_bytes, device.dram_peak_gbps);
  else
    consider(speed_ceiling::measured_bandwidth, dram_bytes, device.measured_bandwidth_gbps * measured_to_peak);
  return worst;
}

} // namespace judge
