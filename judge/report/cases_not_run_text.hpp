// How reports word the cases an earlier failure left unrun (solution_result::cases_not_run): one line that
// names them and says why, so that a short list of cases is never mistaken for a short problem.
#pragma once

#include "judge/record/grade_result.hpp"

#include <string>

namespace judge {

/// "not run: 3 cases (aligned_1024x512x1024, ragged_1001x513x777, ...): <why>", or "" when every case ran.
std::string cases_not_run_line(const solution_result& r);

} // namespace judge
