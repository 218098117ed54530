// Whether a timed case's time is physically possible on the device it ran on. A time below the least
// the case's work can take (its FLOPs at the FP32 peak, its DRAM bytes at the DRAM peak) was not
// earned by the kernel: the harness's view of the GPU was fooled. Such a result is stored and shown,
// flagged for the instructor with the figures below, and not ranked.
#pragma once

#include "judge/run/device_info.hpp"
#include "judge/record/grade_result.hpp"
#include "judge/record/record_names.hpp" // ceiling_name(), for the callers that word a floor

#include <optional>
#include <string_view>

namespace judge {

/// What one call of a case does, and how it was timed.
struct case_work {
  double flops = 0;                  ///< [FLOP] work.flops at the case's sizes
  double bytes = 0;                  ///< [B] work.bytes at the case's sizes
  bool cold_l2 = true;               ///< L2 was flushed before every sample
  bool tensor_cores_allowed = false; ///< problem.yaml: `tensor_cores: allowed`
  /// Whether the solution's machine code issues tensor-core instructions (compile/tensor_core_use.hpp);
  /// nullopt when the build could not tell.
  std::optional<bool> uses_tensor_cores;
};

/// The floor `median_ms` broke, or nullopt when the time is possible (or no ceiling of the device is
/// known). Floors: FLOPs / FP32 peak (device.fp32_peak_gflops: SMs × 128 FMA/clock × 2 × max SM clock),
/// or FLOPs / dense TF32 tensor peak (run/tensor_peak.hpp; no FLOP floor where it is unknown) when the
/// problem allows tensor cores and the solution's code uses them (or the build could not tell: the looser
/// floor, so that a legitimate solution is never flagged; a solution without them keeps the FP32 floor
/// even where the problem allows them); bytes that must cross DRAM / DRAM peak (device.dram_peak_gbps, or
/// the measured copy bandwidth × 1.25 when the peak is unknown). The bytes that must cross DRAM are
/// work.bytes less what L2 can hold without them (once with a cold L2: written lines may stay there;
/// twice with a warm one: inputs may be there before the call too), so that a small case is never
/// flagged for fitting in L2. Of the two floors, the higher one is reported.
std::optional<implausible_time> implausible(double median_ms, const case_work& work, const device_info& device);

} // namespace judge
