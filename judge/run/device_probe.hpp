// Asks the gpu_probe program (harness/probe/gpu_probe.cu) what GPU is present. The judge itself never links
// CUDA, so it can run, compile and report on a machine without a GPU or a driver.
#pragma once

#include "judge/compile/compile.hpp"
#include "judge/run/device_info.hpp"

#include <optional>
#include <string>

namespace judge {

struct probe_result {
  std::optional<device_info> device; ///< nullopt: no usable CUDA device
  /// The probe ran and the CUDA runtime found no device (a machine without a GPU or its driver): not a
  /// failure of the judge. false with no device: the probe itself failed (error says how).
  bool no_device = false;
  /// Why there is no device, as a phrase that stands alone: with no_device judge_device::no_device_reason()'s words (common/no_device.hpp),
  /// otherwise what went wrong running the probe.
  std::string error;
  /// The probe's JSON line an answer with a device was read from: what a kept answer stores
  /// (device_memo_file.hpp), so that parse_probe_output stays the one reader of the probe's fields.
  std::string line;
};

/// Runs the probe (with `bandwidth`, it also measures device-to-device copy bandwidth).
probe_result probe_device(bool bandwidth);

/// The toolchain for the GPU found: solutions are compiled for its compute capability (sm_90 for an
/// H200) unless JUDGE_ARCHS names architectures; without a GPU the configured defaults stay.
toolchain toolchain_for(const probe_result& probe);

/// Parses the probe's JSON line (exposed for tests).
probe_result parse_probe_output(const std::string& json_line);

} // namespace judge
