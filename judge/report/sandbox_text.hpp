// How reports word a solution's sandbox state (the terminal summary, the JSON report).
#pragma once

#include "grade_result.hpp"

#include <string>

namespace judge {

/// "on", "off", "unavailable: <reason>", or "" when the runner never ran.
std::string sandbox_text(const sandbox_status& sandbox);

} // namespace judge
