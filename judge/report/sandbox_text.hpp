// How reports word a solution's sandbox state (the terminal summary, the JSON report).
#pragma once

#include "judge/record/grade_result.hpp"

#include <string>

namespace judge {

/// "on", "off", "unavailable: <reason>", or "" when the runner never ran.
std::string sandbox_text(const sandbox_status& sandbox);
/// "PID namespace", "cgroup limits".
std::string layer_text(sandbox_layer layer);
/// "cgroup limits (no cgroup v2 here), private root (mounting /proc: Operation not permitted)".
std::string missing_layers_text(const sandbox_layers& layers);

} // namespace judge
