// The SM clock and its slowdown reasons, from NVML loaded at run time (a runner must start on a
// machine without NVML, and must not need -lnvidia-ml at link time).
#pragma once

#include <memory>
#include <string>

namespace judge_harness {

/// One reading of the SM clock.
struct clock_reading {
  unsigned sm_mhz = 0;    ///< [MHz] 0 when NVML is unavailable
  bool throttled = false; ///< below 75% of the maximum SM clock, or a hardware/thermal slowdown active
};

class nvml_clock {
public:
  /// Loads libnvidia-ml.so.1 and finds the NVML device with the PCI bus id of CUDA device
  /// `cuda_device` (NVML and CUDA may number devices differently). Never throws: when any step fails
  /// the clock is unavailable and `why_unavailable()` says why.
  explicit nvml_clock(int cuda_device);
  ~nvml_clock();

  nvml_clock(const nvml_clock&) = delete;
  nvml_clock& operator=(const nvml_clock&) = delete;

  bool available() const noexcept { return m_device != nullptr; }
  const std::string& why_unavailable() const noexcept { return m_why_unavailable; }

  /// [MHz] the highest SM clock the device can run; 0 when unavailable.
  unsigned max_sm_mhz() const noexcept { return m_max_sm_mhz; }

  /// The SM clock now; zeros when unavailable.
  clock_reading read() const;

private:
  struct api;
  void* m_library = nullptr;
  std::unique_ptr<api> m_api; ///< set once nvmlInit_v2 succeeded
  void* m_device = nullptr;
  unsigned m_max_sm_mhz = 0;
  std::string m_why_unavailable;
};

} // namespace judge_harness
