// compute-sanitizer on one case of a solution: where the tool is, the bound on its time, its command line,
// and one run of the problem's runner under it (run/runner_under_tool.hpp) with exact buffers, read by
// the parser (sanitizer_output.hpp). What it finds explains a verdict; it never decides one, and its
// time is never counted in speed.
#pragma once

#include "judge/run/runner_under_tool.hpp"
#include "judge/sanitizer/sanitizer_run.hpp"

#include <atomic>
#include <filesystem>
#include <string>
#include <vector>

namespace judge {

/// When the judge runs compute-sanitizer, and which one.
struct sanitizer_options {
  /// Rerun the first failing case of a solution under the tools that can explain its failure
  /// (plan_sanitizer in grading/verdict.hpp), after its verdict is decided (the result's explanation,
  /// sanitizer_explanation.hpp). `judge run`, `judge verify` and a server's GPU workers set it; graders made
  /// elsewhere (tests with a stand-in runner) leave it off.
  bool on_failure = false;
  /// --sanitize: memcheck, racecheck and initcheck on every case of every solution.
  bool every_case = false;
  /// The compute-sanitizer executable; empty when none was found (then `missing` says where the judge
  /// looked).
  std::filesystem::path executable;
  std::string missing;
  /// [s] The bound on each tool's run; 0: sanitizer_seconds() of the case's time limit (tests set a short one).
  double limit_seconds = 0;
  /// When set (and true), an explanation gives way: no further tool starts and it stays pending (a
  /// server's GPU worker sets it when a submission waits to be graded, and kills the tool's run).
  const std::atomic<bool>* give_way = nullptr;
};

/// compute-sanitizer, by find_cuda_tool's rules (tool_path.hpp): $JUDGE_COMPUTE_SANITIZER, else the CUDA
/// toolkit of `nvcc`, else PATH. An empty executable and the places looked at when there is none.
sanitizer_options find_compute_sanitizer(const std::filesystem::path& nvcc);

/// [s] The wall-time bound of one tool's run of a case whose calls may take `case_seconds` each: the
/// tool's start (30 s: it loads and patches the CUDA libraries before the runner's first call) plus ten
/// times the case's limit (the tools slow kernels 10-100×; a call that runs within a tenth of its limit
/// still fits at 100×, and calls anywhere near their limit are time-limit failures anyway), at most 300 s
/// so that one learner cannot hold the GPU longer than that per tool.
double sanitizer_seconds(double case_seconds);

/// The tool's command line before the runner's: the tool, no host backtraces, at most `print_limit` errors.
std::vector<std::string> sanitizer_command(const std::filesystem::path& executable, sanitizer_tool tool,
                                           int print_limit);

/// What a run under `tool` found, from what it printed and how it ended (pure: no process). A run whose
/// runner sent no answer at all did not check the case, whatever the tool's summary says.
sanitizer_run read_sanitizer_run(sanitizer_tool tool, const tool_run& run, double limit_seconds);

/// Runs `runner` (one case request, one checked call, then "end") under `tool` with exact buffers, at
/// most `limit_seconds`.
sanitizer_run run_sanitizer(const runner_options& runner, const sanitizer_options& options, sanitizer_tool tool,
                            const std::vector<std::string>& requests, double limit_seconds);

} // namespace judge
