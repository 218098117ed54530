// What was observed of one checked call and of the timed samples of a case: the facts a verdict is
// decided from (grading/verdict.hpp), gathered by the runner session and the comparison. Facts only:
// statuses are enums and the runner's end is an exit status; words are made where they are shown.
#pragma once

#include "judge/sandbox/process.hpp"
#include "common/wire.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace judge {

/// The same output measured against a tolerance another judge publishes (problem.yaml's `leetgpu`).
struct published_check {
  double atol = 0, rtol = 0; ///< that judge's tolerance
  std::int64_t outside = 0;  ///< elements it would reject (a short output's missing ones among them)
};

/// The first element outside tolerance, and how many there are.
struct mismatch {
  std::string buffer;
  std::int64_t count = 0;                 ///< elements outside tolerance
  std::int64_t total = 0;                 ///< elements checked
  std::int64_t first_index = -1;          ///< flat index of the first wrong element
  std::vector<std::int64_t> first_coords; ///< the same index per dimension (row, col)
  double expected = 0;
  float got = 0;
  std::string against = "CPU reference"; ///< which reference disagreed
  /// The judge's bound at the first wrong element: atol + rtol·|expected| of the case's tolerance (0 for an
  /// exact comparison or an int element).
  double allowed = 0;
  bool exact = false; ///< compared exactly (a case's `compare: exact`)
  /// LeetGPU's tolerance applied to the same buffer, where the problem gives it (float buffers only).
  std::optional<published_check> leetgpu;
};

/// What became of one request to the runner.
enum class request_outcome {
  answered,      ///< the answer that was due came
  timed_out,     ///< none came within the time limit; the judge killed the runner
  runner_ended,  ///< the runner ended (see `exit`) before answering
  not_started,   ///< the runner could not be started, or cannot run here (no CUDA device)
  runner_failed, ///< the runner reported a failure of its own (an "error" answer)
  out_of_step,   ///< an answer that was not due, or one the codec cannot read
  denied,        ///< the runner's system-call filter stopped a call of learner code (see `denied`)
};

/// How the runner handled one request, apart from what it answered.
struct request_facts {
  request_outcome outcome = request_outcome::answered;
  bool before_hello = false;                      ///< it went wrong before the runner said hello, so before any solve()
  std::optional<child_process::exit_status> exit; ///< how the runner ended, when it did
  /// not_started, runner_failed, out_of_step: what happened, in the words of the process layer, the
  /// runner or the codec.
  std::string detail;
  /// denied: the call and the rule it broke, as the runner's filter named them.
  std::optional<judge_wire::denied_answer> denied;
  /// The runner's process runs learner host code: a failure it reports of itself (runner_failed,
  /// out_of_step) is that process's, so the solution's, never the judge's.
  bool learner_host_code = false;
  /// [s] timed_out in a checked call: the limit it ran past (the case's, call_limit.hpp); 0 elsewhere.
  double limit_seconds = 0;
};

/// Everything observed about one checked call of solve() on one case.
struct call_facts {
  request_facts request;
  std::optional<judge_wire::check_answer> answer; ///< what the runner said, when it answered
  // What the judge found in the outputs:
  std::optional<mismatch> wrong;             ///< first buffer that failed the comparison
  std::optional<std::string> output_missing; ///< why an output file was absent or short
  bool reference_disagrees = false;          ///< the CPU and baseline references disagree: the judge's fault
};

/// Facts about the timed samples of one case.
struct timing_facts {
  request_facts request;
  std::optional<judge_wire::timing_answer> answer; ///< what the runner said, when it answered
};

} // namespace judge
