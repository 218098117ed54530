// A device memo's answers kept in a file, for processes that live for one grading run (`judge run`,
// `judge verify`): each would otherwise start CUDA twice to learn what the last one learned a minute
// before (on an H200 the plain probe took 0.32 s and the bandwidth probe 0.35 s of a 2.1 s verdict).
// An answer read back must be young and from the same machine state: the same boot, the same NVIDIA
// driver and the same CUDA_VISIBLE_DEVICES; otherwise the GPU is probed again.
#pragma once

#include "judge/run/device_probe.hpp"

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>

namespace judge {

/// What the answers kept in a file must have been taken under: the boot id, the NVIDIA driver's
/// version line and CUDA_VISIBLE_DEVICES (and CUDA_DEVICE_ORDER), joined.
std::string probe_machine_key();

/// An answer read back from a file, and how long ago the probe gave it.
struct kept_probe {
  probe_result answer;
  std::chrono::seconds age{0};
};

/// The kept answer to the question (`bandwidth` or not) if `file` holds one taken under `machine_key`
/// at most `max_age` ago; nullopt otherwise (no file, another machine state, too old, unreadable).
std::optional<kept_probe> read_kept_probe(const std::filesystem::path& file, bool bandwidth,
                                          std::chrono::seconds max_age, const std::string& machine_key);

/// Keeps `answer` (a device found, with the probe's line) in `file` beside the answer to the other
/// question, published atomically; a file that cannot be written is left alone (the next run probes again).
void keep_probe(const std::filesystem::path& file, bool bandwidth, const probe_result& answer,
                const std::string& machine_key);

} // namespace judge
