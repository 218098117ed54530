// The names the graded record's enums are written under, wherever it is written (the JSON codec, the
// store's columns, the baseline cache): one table per enum, so a name is spelled once.
#pragma once

#include "judge/record/grade_result.hpp"

#include <optional>
#include <string_view>

namespace judge {

/// "fp32_peak", "dram_peak", "measured_bandwidth", "tf32_tensor_peak".
const char* ceiling_name(speed_ceiling ceiling);
/// The ceiling named `name` by ceiling_name(), or nullopt.
std::optional<speed_ceiling> ceiling_from_name(std::string_view name);

/// "not_run", "on", "off", "unavailable".
const char* sandbox_mode_name(sandbox_mode mode);
std::optional<sandbox_mode> sandbox_mode_from_name(std::string_view name);

/// "namespaces", "pid_namespace", "private_root", "cgroup".
const char* sandbox_layer_name(sandbox_layer layer);
std::optional<sandbox_layer> sandbox_layer_from_name(std::string_view name);

} // namespace judge
