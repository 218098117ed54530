#include "judge/report/sandbox_text.hpp"

namespace judge {

std::string layer_text(sandbox_layer layer) {
  switch (layer) {
  case sandbox_layer::namespaces:
    return "namespaces";
  case sandbox_layer::pid_namespace:
    return "PID namespace";
  case sandbox_layer::private_root:
    return "private root";
  case sandbox_layer::cgroup:
    return "cgroup limits";
  }
  return "";
}

std::string missing_layers_text(const sandbox_layers& layers) {
  std::string text;
  for (const missing_layer& m : layers.missing)
    text += (text.empty() ? "" : ", ") + layer_text(m.layer) + " (" + m.reason + ")";
  return text;
}

std::string sandbox_text(const sandbox_status& sandbox) {
  switch (sandbox.mode) {
  case sandbox_mode::not_run:
    return "";
  case sandbox_mode::on:
    return sandbox.layers.all_on() ? "on" : "on, without " + missing_layers_text(sandbox.layers);
  case sandbox_mode::off:
    return "off";
  case sandbox_mode::unavailable:
    return "unavailable: " + sandbox.reason;
  }
  return "";
}

} // namespace judge
