// One grading run of one problem, from paths to results: load the problem, collect solutions, probe the
// GPU, compile in parallel, run the baseline and every solution. Shared by `judge run` and `judge verify`.
#pragma once

#include "device_memo.hpp"
#include "grade.hpp"
#include "grade_result.hpp"
#include "solution_files.hpp"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace judge {

/// What a grading run is doing, for a progress display.
struct run_progress {
  enum class step {
    none,               ///< nothing under way: results are about to be shown
    probing,            ///< probing the GPU
    compiling,          ///< compiling the solutions: `done` of `total` are compiled
    compiling_baseline, ///< compiling the problem's baseline
    running,            ///< running `who` (a solution, or the baseline's label) on case `done` (from 0) of `total`
    waiting_for_gpu,    ///< another judge holds the GPU: `who` is its holder ("pid 123: judge matmul ...")
  };
  step now = step::none;
  std::size_t done = 0, total = 0;
  std::string who;
  std::string case_name; ///< running: the case's name
};

/// Told each time a grading run moves on; report/ draws it (terminal_progress()).
using run_progress_fn = std::function<void(const run_progress&)>;

struct run_request {
  std::filesystem::path problems_root;
  std::filesystem::path testcases_root;
  std::string problem;
  std::vector<solution_entry> solutions;
  std::vector<std::string> only_cases; ///< empty: every case
  grade_options grading;
  unsigned compile_jobs = 0;  ///< 0: cores
  double compile_seconds = 0; ///< 0: the spec's
  bool compile_only = false;  ///< compile (and inspect) every solution, run none: no GPU needed
  bool rebaseline = false;    ///< run the baseline now, even when a recent run of it is kept
  run_progress_fn progress;   ///< told what the run is doing; empty: nobody is told
  /// A long-lived process's memo of its GPU (device_memo.hpp); nullptr: the GPU is probed every run.
  device_memo* devices = nullptr;
};

struct run_outcome {
  problem_spec spec;
  std::optional<device_info> device; ///< nullopt: no GPU; solutions were compiled only
  std::string no_device_reason;
  std::string baseline_error; ///< the baseline could not run (figures then lack "% of")
  std::vector<std::pair<std::string, timing_summary>> baseline_timings; ///< case order
  std::vector<double> baseline_speeds;
  std::int64_t baseline_timed_at = 0; ///< [s since the epoch] when its figures were measured; 0: none
  bool baseline_from_cache = false;   ///< its figures are a kept run's (baseline_cache.hpp), not this run's
  /// Where the run's wall time went, in order: (phase, seconds). Phases: "problem" (specs, cases, the
  /// CPU reference's build), "probe", "gpu wait" (another judge held the GPU), "bandwidth probe",
  /// "baseline", "compile wait" (the GPU idle, waiting for a build), "solutions" (their runs, the compile
  /// wait excluded).
  std::vector<std::pair<std::string, double>> phases;
  std::vector<solution_result> results; ///< one per solution graded, in order
  /// Interrupted (Ctrl-C): the solutions (their display paths) that were not graded to the end. Nothing
  /// is known about them, so they have no result: never a CE or RTE for a compile or run cut short.
  std::vector<std::string> not_graded;
};

/// Called as each solution finishes, for printing and recording as the run goes.
using result_sink = std::function<void(const solution_result&)>;

/// Throws spec_error (bad problem or cases, or a CPU reference that is missing or does not compile) and
/// usage_error (bad paths) before anything runs. On an
/// interrupt (g_interrupted) no compiler or runner starts any more and the rest is `not_graded`.
run_outcome grade_solutions(const run_request& request, const result_sink& on_result,
                            const std::function<void(const run_outcome&)>& on_baseline);

} // namespace judge
