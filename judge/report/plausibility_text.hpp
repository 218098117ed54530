// How reports word a time below the device's physical floor (grading/plausibility.hpp).
#pragma once

#include "judge/record/grade_result.hpp"

#include <string>

namespace judge {

/// "median 0.6 us is below the physical floor of 214.0 us for this case on this GPU (1.72e+10 FLOP at
/// the FP32 peak of 66908 GFLOPS): not ranked, flagged for the instructor".
std::string implausible_text(const implausible_time& t);

} // namespace judge
