// Why a machine has no CUDA device, in the words the judge prints and its GPU tests skip with. Without an
// NVIDIA driver at all the CUDA runtime says "CUDA driver version is insufficient", which sends a newcomer
// to upgrade a driver they do not have. Header-only C++, standard library only.
#pragma once

#include <filesystem>
#include <string>

namespace judge_device {

/// Whether an NVIDIA driver is loaded: the kernel module's file is there whenever it is, GPU or not.
inline bool nvidia_driver_loaded() { return std::filesystem::exists("/proc/driver/nvidia/version"); }

/// Why the CUDA runtime found no device, as a phrase that stands alone: without a driver "no NVIDIA GPU
/// was found: ..."; with one, the runtime's own words.
inline std::string no_device_reason(const std::string& runtime_words, bool driver_loaded) {
  if (!driver_loaded) return "no NVIDIA GPU was found: no NVIDIA driver is loaded on this machine";
  return "the CUDA runtime says: " + runtime_words;
}

} // namespace judge_device
