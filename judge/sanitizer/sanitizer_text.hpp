// compute-sanitizer's findings in a learner's words: what went wrong, where in their file, which thread,
// and where the address lies relative to the buffer it missed.
#pragma once

#include "judge/sanitizer/sanitizer_explanation.hpp"
#include "judge/sanitizer/sanitizer_run.hpp"

#include <string>
#include <vector>

namespace judge {

/// One finding: "invalid global write of 4 bytes in one_past at writes_past_end.cu:19 by thread (0,0,0)
/// of block (0,0,0): just past the end of C (4096 bytes)".
std::string finding_text(const sanitizer_finding& finding);

/// One run's outcome: "memcheck, 12.3 s: 2 errors", "racecheck, 3.1 s: nothing found", "initcheck: not run
/// (no compute-sanitizer at ...)".
std::string run_summary(const sanitizer_run& run);

/// The block under a solution for case `case_name` with its sanitizer `runs`: each run's summary and
/// findings; "" when none ran.
std::string sanitizer_text(const std::string& case_name, const std::vector<sanitizer_run>& runs);

/// An explanation's state in words: "pending", "done", "over budget", "failed" ("" for none).
std::string explanation_state_text(explanation_state state);

/// What the runs of the explained case (`runs`) do not say of the explanation `e`: "compute-sanitizer on
/// n_1001: pending (memcheck, at most 40 s): it explains the failure after the verdict" while it waits or
/// runs, why it could not run when it left no run; "" otherwise.
std::string explanation_text(const sanitizer_explanation& e, const std::vector<sanitizer_run>& runs);

} // namespace judge
