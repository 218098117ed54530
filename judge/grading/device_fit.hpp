// Whether a case fits the device's memory at all: a case too large is the instructor's to fix, so it
// is reported before any runner tries it.
#pragma once

#include "judge/run/device_info.hpp"
#include "judge/problem/problem.hpp"
#include "judge/problem/cases.hpp"

#include <string>

namespace judge {

/// Why case `c` cannot run on `device` (its buffers, held several times over by the runner, exceed the
/// device's memory), or empty when it fits or the memory is unknown. Such a case is the instructor's
/// to fix, never the learner's fault.
std::string device_memory_shortfall(const problem_spec& spec, const test_case& c, const device_info& device);

} // namespace judge
