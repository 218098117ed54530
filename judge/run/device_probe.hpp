// Asks the gpu_probe program (harness/probe/gpu_probe.cu) what GPU is present. The judge itself never links
// CUDA, so it can run, compile and report on a machine without a GPU or a driver.
#pragma once

#include "compile.hpp"
#include "device_info.hpp"

#include <optional>
#include <string>

namespace judge {

struct probe_result {
  std::optional<device_info> device; ///< nullopt: no usable CUDA device
  /// The probe ran and the CUDA runtime found no device (a machine without a GPU or its driver): not a
  /// failure of the judge. false with no device: the probe itself failed (error says how).
  bool no_device = false;
  /// Why there is no device: with no_device the CUDA runtime's words ("CUDA driver version is
  /// insufficient for CUDA runtime version"), otherwise what went wrong running the probe.
  std::string error;
};

/// Runs the probe (with `bandwidth`, it also measures device-to-device copy bandwidth).
probe_result probe_device(bool bandwidth);

/// The toolchain for the GPU found: solutions are compiled for its compute capability (sm_90 for an
/// H200) unless JUDGE_ARCHS names architectures; without a GPU the configured defaults stay.
toolchain toolchain_for(const probe_result& probe);

/// Parses the probe's JSON line (exposed for tests).
probe_result parse_probe_output(const std::string& json_line);

} // namespace judge
