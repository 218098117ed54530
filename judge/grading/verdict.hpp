// Verdicts, decided by a pure function of what the judge observed (DOMjudge's rule): nothing here runs a
// process or touches a GPU, so every rule is unit-tested.
#pragma once

#include "judge/run/runner_facts.hpp"
#include "judge/sanitizer/sanitizer_output.hpp"
#include "judge/problem/verdicts.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace judge {

struct decision {
  verdict v = verdict::internal_error;
  std::string message; ///< one or a few lines a learner can act on
  /// The wrong output that decided a wrong answer, where one did (report/ says more of it: LeetGPU's
  /// tolerance, the judge's bound at the first wrong element).
  std::optional<mismatch> wrong = std::nullopt;
};

/// What became of a request that got no answer, in words, e.g. "the runner exited with code 0 before
/// reporting a result (exit() inside solve()?)" or "the runner could not start: no CUDA device: ...".
std::string describe(const request_facts& request);

/// The verdict of one case from its checked calls (and timing, if it ran).
decision decide_case(const std::vector<call_facts>& calls, const std::optional<timing_facts>& timing);

/// What compute-sanitizer can explain of a failed case: the tools to run, in order, on the checked call
/// `check` (its seed). memcheck after a CUDA error or a write outside the buffers; racecheck, then
/// initcheck, when the same code gave different answers (right on the checked calls, wrong on timed runs
/// with fresh inputs: a race or an uninitialised read is the usual cause). No tools for anything else.
/// The sanitizer explains; it never changes the decision.
struct sanitizer_plan {
  std::vector<sanitizer_tool> tools;
  std::size_t check = 0;
};
sanitizer_plan plan_sanitizer(const std::vector<call_facts>& calls, const std::optional<timing_facts>& timing);

/// One case's decision as the solution's verdict sees it. A robustness case (a case's `beyond_limits`)
/// graded without strict mode is one that never decides: the grader says so here, strict or not.
struct case_outcome {
  decision d;
  bool robustness = false;
};

/// A solution's verdict from its cases': the first failing case in case order decides, robustness cases
/// left out, whatever they did; all AC is AC; no case that decides is an internal error.
decision decide_solution(const std::vector<case_outcome>& cases);

} // namespace judge
