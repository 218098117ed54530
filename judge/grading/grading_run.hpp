// One grading run of one problem, from paths to results: load the problem, collect solutions, probe the
// GPU, compile in parallel, run the baseline and every solution. Shared by `judge run` and `judge verify`.
#pragma once

#include "judge/base/named_steps.hpp"
#include "judge/compile/build_queue.hpp"
#include "judge/grading/device_memo.hpp"
#include "judge/grading/grader.hpp"
#include "judge/grading/run_phases.hpp"
#include "judge/problem/solution_files.hpp"
#include "judge/record/grade_result.hpp"
#include "judge/run/gpu_lock.hpp"

#include <chrono>
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
  /// The results store, hidden from learner code with the secret (hidden_from_learner_code: other
  /// learners' sources and results); empty: no store. The run sets `grading.hidden_paths` from it.
  std::filesystem::path store;
  grade_options grading;
  unsigned compile_jobs = 0;  ///< 0: cores
  double compile_seconds = 0; ///< 0: the spec's
  bool compile_only = false;  ///< compile (and inspect) every solution, run none: no GPU needed
  /// With compile_only: also build what the problem ships (its runner, baseline and starter) and say
  /// what does not build in run_outcome::package_errors (`judge verify --compile-only`).
  bool check_package = false;
  bool rebaseline = false;  ///< run the baseline now, even when a recent run of it is kept
  /// A failure's explanation (grader::explain) is left pending in its result for a later explain-only
  /// run (a server's GPU worker runs it when it has nothing to grade). Without it, each solution's
  /// explanation runs right after its verdict has been handed to the verdict sink.
  bool explain_later = false;
  /// An explain-only run: the graded results, one per solution and in their order, whose pending
  /// explanations it runs on the solutions' builds (the runner cache's), with no baseline and nothing
  /// timed. Empty: a grading run.
  std::vector<solution_result> to_explain;
  run_progress_fn progress; ///< told what the run is doing; empty: nobody is told
  /// A long-lived process's memo of its GPU (device_memo.hpp); nullptr: the GPU is probed every run.
  device_memo* devices = nullptr;
};

struct run_outcome {
  problem_spec spec;
  std::optional<device_info> device; ///< nullopt: no GPU; solutions were compiled only
  std::string no_device_reason;
  std::string baseline_error; ///< the baseline could not run (figures then lack "% of")
  /// Compiling only: the problem's own files that do not build (its GPU reference with the call shim,
  /// its baseline, its starter), each with the compiler's message naming the file and the line. Empty
  /// when they all build, or when the run was not a compile-only one.
  std::vector<std::string> package_errors;
  std::vector<std::pair<std::string, timing_summary>> baseline_timings; ///< case order
  std::vector<double> baseline_speeds;
  std::int64_t baseline_timed_at = 0; ///< [s since the epoch] when its figures were measured; 0: none
  bool baseline_from_cache = false;   ///< its figures are a kept run's (baseline_cache.hpp), not this run's
  /// Where the run's wall time went, in order: (phase, seconds). Phases: "problem" (specs, cases, the
  /// CPU reference's build), "probe", "gpu wait" (another judge held the GPU), "bandwidth probe",
  /// "baseline", "compile wait" (the GPU idle, waiting for a build), then the solutions' grading (grader.hpp):
  /// "runner start", "checked calls", "output hand-over", "input generation", "timing", "sanitizer", "runner
  /// end" and the others grader::grade() names, and "results" (verdicts, hints and the results recorded).
  run_phases phases;
  std::vector<solution_result> results; ///< one per solution graded, in order
  /// Interrupted (Ctrl-C): the solutions (their display paths) that were not graded to the end. Nothing
  /// is known about them, so they have no result: never a CE or RTE for a compile or run cut short.
  std::vector<std::string> not_graded;
};

/// Called as each solution finishes, for printing and recording as the run goes; the verdict sink, where
/// one is given, as a solution's verdict is decided, before its explanation runs.
using result_sink = std::function<void(const solution_result&)>;
/// Called once the baseline has run (or there is none), before the first solution is graded.
using baseline_sink = std::function<void(const run_outcome&)>;

/// Throws spec_error (bad problem or cases, or a CPU reference that is missing or does not compile) and
/// usage_error (bad paths) before anything runs. On an
/// interrupt (g_interrupted) no compiler or runner starts any more and the rest is `not_graded`. Every
/// run, whoever asks for it, makes the secret first and hides it and `request.store` from the runners.
run_outcome grade_solutions(const run_request& request, const result_sink& on_result, const baseline_sink& on_baseline,
                            const result_sink& on_verdict = {});

/// grade_solutions() as named steps (named_steps.hpp), each with one job: load the problem (the secret, its
/// spec, its cases, its CPU reference), probe the GPU, hand out the builds, report the builds when nothing is run
/// (no GPU, or compile only: the run ends there), take the GPU, measure its bandwidth, set up the grader,
/// run the baseline, grade the solutions, each through steps of its own: wait for its build, grade it
/// (or, when nothing is run, take its build's word), hand on its verdict (to the verdict sink, when its
/// explanation runs now), explain it (unless explain_later), hand on its result (to the outcome and the
/// caller's result_sink). An explain-only run (run_request::to_explain) ends at once without a GPU, and
/// leaves out the bandwidth, the baseline and the grading: each solution waits for its build, takes its
/// graded result, is explained and handed on. The interrupt (g_interrupted) is looked at between the
/// steps, of the run and of each solution: once it is set no further step starts, and every solution
/// without a result is not graded.
class grading_run {
public:
  /// `request` must outlive the run.
  grading_run(const run_request& request, result_sink on_result, baseline_sink on_baseline,
              result_sink on_verdict = {});
  ~grading_run();
  grading_run(const grading_run&) = delete;
  grading_run& operator=(const grading_run&) = delete;

  /// The run's steps, in order: of a grading run, and of an explain-only one.
  static const std::vector<named_step<grading_run>>& steps();
  static const std::vector<named_step<grading_run>>& explain_only_steps();
  /// The steps of each solution: on a GPU, when nothing is run, and in an explain-only run.
  static const std::vector<named_step<grading_run>>& solution_steps();
  static const std::vector<named_step<grading_run>>& compiled_only_steps();
  static const std::vector<named_step<grading_run>>& explanation_steps();

  /// Runs the steps (once); `on_step` is told each step's name as it starts, a solution's steps too.
  run_outcome run(const step_observer& on_step = {});

private:
  step_end load_the_problem();
  step_end probe_the_gpu();
  step_end hand_out_the_builds();
  step_end report_builds_when_nothing_runs();
  /// An explain-only run without a GPU: each explanation fails, saying why, before anything is built.
  step_end end_without_a_gpu();
  /// Compiling only: the problem's runner (GPU reference and call shim), baseline and starter must
  /// build; what does not is said in run_outcome::package_errors.
  void check_the_package_builds();
  step_end take_the_gpu();
  step_end measure_the_bandwidth();
  step_end set_up_the_grader();
  step_end run_the_baseline();
  step_end grade_the_solutions();
  step_end explain_the_solutions();
  // Steps of solution m_current:
  step_end wait_for_its_build();
  step_end grade_it();
  step_end take_its_build_word();
  step_end take_its_graded_result();
  step_end hand_on_its_verdict();
  step_end explain_it();
  step_end hand_on_its_result();
  /// Whether this run explains a pending explanation itself (an explain-only run, or one not told to
  /// leave them for later).
  bool explains_now() const { return !m_request.explain_later || !m_request.to_explain.empty(); }
  /// Each explanation of an explain-only run fails for `why` and is handed on.
  void explanations_fail(const std::string& why);

  /// Runs `steps` with the interrupt check between them.
  steps_outcome run_with_interrupts(const std::vector<named_step<grading_run>>& steps);
  /// Every solution that has neither a result nor a place among the not graded gets one there.
  void not_graded_from_here();
  /// A solution's result as its build leaves it (path, author, compile facts), before it is graded.
  solution_result result_of_build(std::size_t i, const build_result& build) const;
  /// Solution i's build, waiting for it (the display shows the compiles meanwhile).
  const build_result& build_of(std::size_t i);
  /// What the grader tells as it runs a case (who, case i of n, its name), passed on to the display.
  progress_fn running() const;

  const run_request& m_request;
  const result_sink m_on_result;
  const baseline_sink m_on_baseline;
  const result_sink m_on_verdict;
  step_observer m_on_step;
  run_outcome m_outcome;
  phase_clock m_clock;
  std::vector<test_case> m_cases;
  std::string m_case_set; ///< problem/case_set_version.hpp: the version every result of the run carries
  judge_secret m_secret;
  std::vector<std::filesystem::path> m_hidden; ///< from learner code: the secret and the store
  probe_result m_probe;
  toolchain m_tools;
  bool m_has_baseline = false;
  std::size_t m_first_solution = 0;           ///< the first solution's job in m_builds (after the baseline's)
  std::optional<std::size_t> m_starter_build; ///< the starter's job in m_builds, compiling only
  std::optional<build_queue> m_builds;
  std::optional<gpu_lock> m_lock;
  std::optional<grader> m_grader;
  std::size_t m_current = 0;               ///< the solution whose steps run
  const build_result* m_build = nullptr;   ///< its build, once waited for
  std::optional<solution_result> m_graded; ///< its result, once made
};

} // namespace judge
