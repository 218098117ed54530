// The words for a solution that compiled but was not run because the run had no CUDA device
// (solution_result::compiled_only): not a verdict, so neither the IE that its verdict field holds nor
// anything that ranks; every report says it the same way.
#pragma once

#include "judge/record/record_json.hpp"

namespace judge {

/// Where a verdict's short name would stand (terminal, --json "verdict").
inline constexpr const char* not_run_short = not_run_verdict_name;
/// The state in words (terminal, --json "message", --junit <skipped>).
inline constexpr const char* not_run_text = "compiled, not run: no CUDA device";

} // namespace judge
