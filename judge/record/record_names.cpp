#include "judge/record/record_names.hpp"

#include <utility>

namespace judge {

namespace {

constexpr std::pair<speed_ceiling, const char*> ceiling_names[] = {
    {speed_ceiling::fp32_peak, "fp32_peak"},
    {speed_ceiling::dram_peak, "dram_peak"},
    {speed_ceiling::measured_bandwidth, "measured_bandwidth"},
    {speed_ceiling::tf32_tensor_peak, "tf32_tensor_peak"},
};

constexpr std::pair<sandbox_mode, const char*> mode_names[] = {
    {sandbox_mode::not_run, "not_run"},
    {sandbox_mode::on, "on"},
    {sandbox_mode::off, "off"},
    {sandbox_mode::unavailable, "unavailable"},
};

constexpr std::pair<sandbox_layer, const char*> layer_names[] = {
    {sandbox_layer::namespaces, "namespaces"},
    {sandbox_layer::pid_namespace, "pid_namespace"},
    {sandbox_layer::private_root, "private_root"},
    {sandbox_layer::cgroup, "cgroup"},
};

template <typename Enum, std::size_t N>
const char* name_of(Enum value, const std::pair<Enum, const char*> (&names)[N]) {
  for (const auto& [e, name] : names)
    if (e == value) return name;
  return "unknown";
}

template <typename Enum, std::size_t N>
std::optional<Enum> value_of(std::string_view name, const std::pair<Enum, const char*> (&names)[N]) {
  for (const auto& [e, n] : names)
    if (name == n) return e;
  return std::nullopt;
}

} // namespace

const char* ceiling_name(speed_ceiling ceiling) { return name_of(ceiling, ceiling_names); }
std::optional<speed_ceiling> ceiling_from_name(std::string_view name) { return value_of(name, ceiling_names); }

const char* sandbox_mode_name(sandbox_mode mode) { return name_of(mode, mode_names); }
std::optional<sandbox_mode> sandbox_mode_from_name(std::string_view name) { return value_of(name, mode_names); }

const char* sandbox_layer_name(sandbox_layer layer) { return name_of(layer, layer_names); }
std::optional<sandbox_layer> sandbox_layer_from_name(std::string_view name) { return value_of(name, layer_names); }

} // namespace judge
