// What reports add to a wrong answer's message from its facts (case_result::wrong): the first wrong
// element beside another judge's tolerance, LeetGPU's, when every element is within it.
#pragma once

#include "judge/record/grade_result.hpp"
#include "judge/run/runner_facts.hpp"

#include <optional>
#include <string>

namespace judge {

/// "C[3][7]": a buffer's element by its coordinates (its flat index when it has none).
std::string element_text(const mismatch& m);

/// "within LeetGPU's tolerance (atol 0.01, rtol 0.01), outside the FP32 bound here: C[3][7] = 1.5
/// expected 1.25 (|diff| 0.25 > 0.0001)" when every element of the wrong buffer is within LeetGPU's
/// tolerance; nullopt when the problem has none, or LeetGPU would reject the output too.
std::optional<std::string> leetgpu_note(const mismatch& m);

/// leetgpu_note of the wrong output that decided `r`'s wrong answer: its first failing case's, in case
/// order; nullopt for any other verdict, or when that case has no such note.
std::optional<std::string> leetgpu_note(const solution_result& r);

} // namespace judge
