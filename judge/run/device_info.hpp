// What the judge knows of the GPU it grades on, from the device probe: the figures every "% of peak"
// divides by, recorded with each result so a board can group results by GPU model.
#pragma once

#include <cstdint>
#include <string>

namespace judge {

struct device_info {
  std::string name;
  std::string cc; ///< "9.0"
  int sms = 0;
  std::int64_t l2_bytes = 0;
  double clock_max_mhz = 0;
  double fp32_peak_gflops = 0;
  double measured_bandwidth_gbps = 0; ///< [GB/s] best device-to-device copy the probe measured
  double dram_peak_gbps = 0;          ///< [GB/s] 2 × memory clock × bus width; 0 when unknown
  std::int64_t memory_bytes = 0;      ///< [B] device memory; 0 when unknown
  std::string uuid; ///< "GPU-..." as nvidia-smi writes it: which GPU, whatever its index; "" when unknown
};

/// The bandwidth "% of peak" divides by: the DRAM's theoretical peak, as the FP32 peak is theoretical
/// and as Nsight Compute's throughput percentages are; the measured copy bandwidth when the peak is
/// unknown (results stored before it was recorded).
inline double bandwidth_peak(const device_info& d) {
  return d.dram_peak_gbps > 0 ? d.dram_peak_gbps : d.measured_bandwidth_gbps;
}

} // namespace judge
