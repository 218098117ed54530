// How reports word a robustness case (a case's `beyond_limits`): one line that says it changes nothing,
// why the case lies beyond the limits, and what the solution did there.
#pragma once

#include "judge/record/grade_result.hpp"

#include <string>

namespace judge {

/// The label every robustness line starts with.
inline constexpr const char* robustness_label = "robustness (does not change the verdict or rank)";

/// "robustness (does not change the verdict or rank): n_2pow31 (N past LeetGPU's limit of 100,000,000):
/// would fail at 2147483647: run-time error: checked call 1: ...", or "...: passes at 2147483647", or
/// "...: not run: <why>" when the judge could not run it (an internal error: nothing about the solution).
std::string robustness_line(const case_result& c);

} // namespace judge
