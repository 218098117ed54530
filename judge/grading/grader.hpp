// Grades solutions of one problem: runs the baseline once (baseline.cpp), then each solution's runner
// over every case; compares outputs with the CPU reference and the baseline, decides verdicts,
// summarises timings.
#pragma once

#include "judge/compile/compile.hpp"
#include "judge/grading/baseline.hpp"
#include "judge/grading/baseline_cache.hpp"
#include "judge/grading/interrupt.hpp" // g_interrupted, which graders and their callers read
#include "judge/grading/reference_cache.hpp"
#include "judge/grading/run_phases.hpp"
#include "judge/grading/scratch_folder.hpp"
#include "judge/grading/verdict.hpp"
#include "judge/problem/cases.hpp"
#include "judge/problem/problem.hpp"
#include "judge/problem/secret.hpp"
#include "judge/record/grade_result.hpp"
#include "judge/run/output_window.hpp"
#include "judge/run/runner_session.hpp"
#include "judge/sanitizer/sanitize.hpp"

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace judge {

struct grade_options {
  bool timing = true;  ///< time accepted cases
  bool cold_l2 = true; ///< flush L2 before every timed sample
  /// How runners time (the baseline's and every solution's): CUPTI unless a tool that holds CUPTI
  /// (a profiler) needs CUDA events.
  judge_wire::timing_method timing_method = judge_wire::timing_method::cupti;
  double budget_seconds = 0; ///< [s] per-case timing budget; 0: the spec's
  double case_seconds = 0;   ///< [s] per checked call; 0: the spec's
  int checks = 2;            ///< checked calls per case, alternating poison values
  bool sandbox = true;
  unsigned cpu_threads = 0;                        ///< CPU reference threads; 0: all cores
  /// Hidden from runners in the sandbox; a grading run sets them (run_request::store).
  std::vector<std::filesystem::path> hidden_paths;
  /// Visible (read-only) to runners in the sandbox: the CUDA library folders they load from.
  std::vector<std::filesystem::path> runner_library_dirs;
  /// Where the baseline's runs are kept between judge runs (baseline_cache.hpp); empty: not kept.
  std::filesystem::path baseline_cache_dir;
  /// Where the CPU reference's outputs of costly cases are kept between judge runs (reference_disk.hpp);
  /// empty: computed in every run.
  std::filesystem::path reference_cache_dir;
  /// How old a kept baseline run may be to stand for a new one; 0: the baseline always runs now.
  std::chrono::seconds baseline_max_age = judge::baseline_max_age;
  /// compute-sanitizer after a failure, or on every case (sanitizer/sanitize.hpp).
  sanitizer_options sanitizer;
  /// Robustness cases (a case's `beyond_limits`) decide like every other case, in file order: they are
  /// timed, and a failure there is the solution's verdict. Without it (the default) they run after the
  /// cases that decide, untimed, and only their own lines record what happened (`--strict`, a server's
  /// `--strict`).
  bool strict = false;
  /// The outputs of a solution's checked calls go through memory the judge shares with its runner
  /// (judge/run/output_window.hpp) rather than through files; where the system gives no such memory,
  /// through files all the same. Off: files always.
  bool output_window = true;
};

/// Progress notifications for the terminal: (solution, case index, case count, case name).
using progress_fn = std::function<void(const std::string&, std::size_t, std::size_t, const std::string&)>;

/// One runner process of a solution's grading and the scratch folder it runs in.
struct scratch_runner {
  explicit scratch_runner(scratch_folder folder) : scratch(std::move(folder)) {}
  scratch_folder scratch;
  std::unique_ptr<runner_session> session;
};

/// The runners of the solution graded next, started while this one's untimed cases run (grade's `next`),
/// and the build they belong to (its runner and solution). The recording runner is held before it loads
/// the solution (runner_options::load_on_request): until its turn no learner code runs in it.
struct runners_ahead {
  std::filesystem::path runner, solution;
  std::unique_ptr<scratch_runner> recorder, replayer;
};

/// A case whose checked calls were all right, kept for timing from its recording once every case that decides
/// has passed (grade()): a solution that fails a later case is not timed at all.
struct case_to_time {
  std::size_t case_index = 0;   ///< in grader::cases()
  std::size_t result_index = 0; ///< in solution_result::cases
  judge_wire::case_request request;
  std::vector<call_facts> calls; ///< its checked calls, the last one recorded
};

/// A runner whose conversation has ended, kept with its scratch folder until the next solution's start:
/// its process, exiting (runner_session::finish_without_exit), or nullptr when it ended already.
struct exiting_runner {
  std::unique_ptr<child_process> process;
  std::unique_ptr<scratch_runner> runner;
};

class grader {
public:
  /// `secret` keys the seeds of hidden cases (check_seed.hpp). Unless the options are strict, the
  /// robustness cases move behind the others (in their order): cases() is then the order they run in.
  grader(problem_spec spec, std::vector<test_case> cases, const judge_secret& secret, device_info device,
         grade_options options);
  ~grader();
  grader(const grader&) = delete;
  grader& operator=(const grader&) = delete;

  /// Runs the baseline runner over every case: its outputs become a reference (when the spec says so)
  /// and its timings the "% of baseline" column. Returns an error message, or empty on success.
  /// A run of the same baseline on the same GPU with the same cases, seeds and options that is younger
  /// than `baseline_max_age` is taken from the baseline cache instead, and a new run is stored there.
  std::string run_baseline(const build_result& baseline, const progress_fn& progress);
  /// When the baseline's figures were measured [s since the epoch]: now, or earlier when they came from
  /// the baseline cache; 0 when no baseline ran.
  std::int64_t baseline_timed_at() const { return m_baseline_timed_at; }
  bool baseline_from_cache() const { return m_baseline_from_cache; }
  /// Baseline timings by case name (empty when no baseline ran).
  const std::map<std::string, timing_summary>& baseline_timings() const { return m_baseline.timings; }

  /// The build of the solution to be graded next, once it is built; nullptr while it is not (or none).
  using next_build_fn = std::function<const build_result*()>;

  /// Grades one compiled solution. `result` arrives with path, author and compile facts filled in. The
  /// cases that decide fill result.cases; then, unless a case failed, the robustness cases (not strict)
  /// fill result.robustness, each in a runner call of its own after every deciding case, so that a crash
  /// or a wrong answer there changes nothing but its own line. After the first failing case only the
  /// cases cases_after_failure lets through run, untimed; the others are named in result.cases_not_run.
  /// Once its own recording runner has said hello and the runners of the solution before have exited (at
  /// once when no case is timed; when `next` is still compiling then, before a later untimed case), the
  /// runners of `next`'s build start, so that their CUDA start overlaps this solution's untimed cases
  /// rather than the next one's first cases: its replaying runner, which runs no learner host code, and
  /// its recording runner, held before it loads the solution until this one has ended. No timing is under
  /// way while they start: a timed case waits until they have (their hello, and the held one's "held"),
  /// and they then sit idle.
  /// The first failure compute-sanitizer can explain (the options' `on_failure`) is not rerun here: its
  /// plan is left in result.sanitizer, pending, for explain() once the verdict is out (where there is no
  /// compute-sanitizer, the result says so at once: there is nothing to wait for).
  /// Returns where the grading's time went: "runner start" (waiting for runners' hellos, and for the next
  /// solution's runners to start before a timed case), "cpu reference"
  /// (its outputs computed, or read back from the disk), "checked calls" (and their comparison), "output
  /// hand-over" (the runner copying the checked calls' outputs to the host, into the output window or
  /// their files), "input
  /// generation" (the runner making the inputs of checked calls and timed samples), "timing", "sanitizer"
  /// (--sanitize's runs of every case), "runner end".
  run_phases grade(const build_result& runner, solution_result& result, const progress_fn& progress,
                   const next_build_fn& next = {});

  /// Runs the pending explanation of `result` (graded by grade(), here or in another process with the same
  /// secret and cases): its tools on its case, each in a runner of `runner`'s build under compute-sanitizer
  /// with exact buffers, bounded by the options' limit. The runs land in the case's `sanitizer` and the
  /// explanation's state says how it went; a case the problem no longer has fails it, saying so; an
  /// interrupt, or the options' `give_way`, leaves it pending, with no runs. Nothing is timed, and the
  /// verdict never changes. Returns the seconds it took.
  double explain(const build_result& runner, solution_result& result, const progress_fn& progress);
  /// Waits for the runners of the solutions graded so far to exit (each grade() leaves its own exiting,
  /// and waits for those of the solution before once its own first runner has said hello); returns the
  /// seconds it waited. A grading run calls it after its last solution, before the GPU is let go.
  double settle_exits();
  /// [s] The bound on each tool's run of an explanation: the options' limit, else sanitize.hpp's
  /// sanitizer_seconds() of a call's time limit.
  double sanitizer_limit() const;

  const problem_spec& spec() const { return m_spec; }
  const std::vector<test_case>& cases() const { return m_cases; }
  const device_info& device() const { return m_device; }
  /// Speed of one call that took `ms` milliseconds, in the spec's unit (GFLOPS or GB/s).
  double speed(const test_case& c, double ms) const;

private:
  /// Runs the checked calls of case `i` on `session`, whose outputs land in `scratch`.
  /// With `explanation` (not null), a failure of the case that compute-sanitizer can explain (the options'
  /// `on_failure`) leaves its plan there, pending.
  /// When `time_it` (no earlier case failed) and the case is timed, its last checked call is recorded, and a
  /// case whose calls were all right is added to `to_time` (time_cases() times it).
  case_result grade_case(runner_session& session, const scratch_folder& scratch, const build_result& build,
                         std::size_t i, const std::string& who, const progress_fn& progress,
                         sanitizer_explanation* explanation, bool time_it, std::vector<case_to_time>& to_time);
  /// Times `to_time`'s cases, in order, by `replayer` (started on first use) from what their checked calls
  /// recorded in `scratch`, and sets their figures in `result`. A case whose replay fails it takes its
  /// verdict (and `decisions`' entry) from there; the cases after it are not timed. Returns that case's
  /// index in `result.cases`, if one failed.
  std::optional<std::size_t> time_cases(std::vector<case_to_time>& to_time, std::unique_ptr<scratch_runner>& replayer,
                                        const scratch_folder& scratch, const build_result& build,
                                        solution_result& result, std::vector<case_outcome>& decisions,
                                        const progress_fn& progress);
  /// Plans the compute-sanitizer explanation of case `i`, which failed (`cr`) in `calls` or in its
  /// `timing`, into `explanation`, pending; where the tool is missing, says so in `cr` at once.
  void plan_explanation(const build_result& build, std::size_t i, case_result& cr,
                        const std::vector<call_facts>& calls, const std::optional<timing_facts>& timing,
                        sanitizer_explanation& explanation, const std::string& who, const progress_fn& progress);
  /// Whether an explanation under way stops: an interrupt, or the options' `give_way`.
  bool stop_explaining() const;
  /// Runs `plan`'s tools on case `i` of `build`, each in a runner of its own; nothing counts in speed.
  std::vector<sanitizer_run> sanitize_case(const build_result& build, std::size_t i, const sanitizer_plan& plan,
                                           const std::string& who, const progress_fn& progress);
  /// Adds to `facts` what the outputs of checked call `check` (as `request` placed them: in the output
  /// window, or in files) of case `case_index` hold: the first wrong buffer, against the CPU reference and
  /// then the baseline's outputs. The check's files are gone from `scratch` afterwards. The CPU reference's time (where
  /// it is computed or read back) goes to `reference_s`, the reading and comparing to `compare_s`.
  void check_outputs(const scratch_folder& scratch, const judge_wire::case_request& request, std::size_t case_index,
                     int check, call_facts& facts, double& reference_s, double& compare_s);
  /// Runs the checked calls of `request` (case `i`) and checks their outputs: every check's but the last
  /// on a thread of its own while the runner makes the next call, the last one's after it.
  std::vector<call_facts> run_and_check(runner_session& session, const scratch_folder& scratch,
                                        const judge_wire::case_request& request, std::size_t i);
  /// Adds the runner's split of a case's checked calls, which took the judge `checks_s` (its answers'
  /// inputs_s and outputs_s, held within that wait), to the solution's input generation and output hand-over.
  void add_runner_split(const std::vector<call_facts>& calls, double checks_s);
  /// Speed, its share of the baseline's and of the device's peak, and feedback, from `cr.timing`.
  void add_figures(case_result& cr, const test_case& c) const;
  /// Geometric mean of the speeds of the hidden timed cases of an accepted solution; 0 otherwise.
  double score(const solution_result& result) const;
  const reference_cache::outputs& cpu_reference(std::size_t case_index, int check) {
    return cpu_reference(case_index, check, m_reference_s);
  }
  /// The outputs of the CPU reference for check `check` of case `case_index`, kept; the time spent making
  /// or reading them goes to `seconds`.
  const reference_cache::outputs& cpu_reference(std::size_t case_index, int check, double& seconds);
  /// The seeds of the checked calls of case `case_index` (check_seed.hpp).
  std::vector<std::uint64_t> check_seeds(std::size_t case_index) const;
  /// The request of case `i` with its checked calls and no timing: one call where the case decides
  /// nothing (a robustness case) or only explains a verdict already decided (`explains_only`).
  judge_wire::case_request checks_request(std::size_t i, bool explains_only = false) const;
  /// The output window a recording runner is given, made the first time it is asked for, large enough
  /// for every case's checked calls; nullptr where the options or the system want files.
  const output_window* window_for_checks();
  /// Gives each output of `request`'s checks its place in the output window, one after another, when a
  /// window was made (every recording runner then has it) and the case fits it.
  void place_outputs(judge_wire::case_request& request) const;
  /// Times case `i` on `session` with the spec's (or the options') budget; the runner draws every
  /// sample's inputs itself.
  timing_facts time_case(runner_session& session, std::size_t i,
                         std::optional<std::string> replay_file = std::nullopt);
  /// A runner of `build` in the part `role` plays (recording or replaying), in a scratch folder of its
  /// own, its process started (start_early) but its hello not yet read; a recording one is held before
  /// it loads the solution.
  std::unique_ptr<scratch_runner> start_runner(const build_result& build, runner_role role);
  /// The runners started ahead for `build` (the others, started for another build, are ended). Runners
  /// that did not start (no `held`, no hello) are ended too, and `failed` is set: they started beside the
  /// solution before, whose memory or context's teardown can be what failed them, so the caller starts
  /// them again once that solution's runners have gone, rather than charge the failure to this solution.
  runners_ahead take_ahead(const build_result& build, bool& failed);
  /// Starts the runners of `next`'s build ahead of its turn, unless they are started already.
  void start_ahead(const next_build_fn& next);
  /// Waits until `ahead`'s runners have started (runner_session::wait_until_started), counted in the
  /// solution's runner start; whether every one did. Called on m_ahead before every timing, so that no
  /// runner's start runs beside one, and by take_ahead.
  bool wait_for_runners_ahead(runners_ahead& ahead);
  /// Whether any case from case `i` on is timed in this grading (from 0: any case at all).
  bool times_a_case_from(std::size_t i) const;
  /// Whether case `i` (of cases()) decides the verdict: every case when strict, else all but the
  /// robustness cases, which follow them.
  bool decides(std::size_t i) const { return i < m_deciding; }
  /// Times case `i` of a solution from what its checked calls recorded (`calls`, the last one recorded):
  /// the recording is read from `scratch` and replayed by `replayer`, started on first use. Sets `cr`'s
  /// feedback when the case cannot be timed, and returns the decision.
  decision time_by_replay(std::unique_ptr<scratch_runner>& replayer, const build_result& build,
                          const scratch_folder& scratch, const judge_wire::case_request& request,
                          const std::vector<call_facts>& calls, std::size_t i, case_result& cr,
                          std::optional<timing_facts>& timing);
  /// run_baseline without the cache.
  std::string run_baseline_now(const build_result& baseline, const progress_fn& progress);
  /// The baseline cache's key for `baseline` run by this grader: everything its figures depend on.
  std::string baseline_key(const build_result& baseline) const;
  /// Ends `runner`'s conversation and keeps it, its process exiting, for settle_exits().
  void let_exit(std::unique_ptr<scratch_runner> runner);
  /// A new scratch folder for one runner process's outputs, inside the grader's own.
  scratch_folder new_scratch(const std::string& tag);
  runner_options runner_options_for(const build_result& runner, const scratch_folder& scratch, runner_role role);
  /// [s] The most one checked call may take on any case (--time-limit, else limits.case_seconds): what the
  /// timing's and the tools' bounds are made from.
  double call_seconds() const;
  /// [s] The limit of one checked call on case `i`: --time-limit where given, else the case's own
  /// (call_limit.hpp), never more than call_seconds().
  double call_seconds(std::size_t i) const;
  double budget_seconds() const;

  problem_spec m_spec;
  std::vector<test_case> m_cases;
  std::size_t m_deciding = 0; ///< the cases that decide: m_cases[0, m_deciding)
  judge_secret m_secret;
  device_info m_device;
  grade_options m_options;
  scratch_folder m_scratch_root;
  int m_runs = 0;
  reference_cache m_references;
  baseline_record m_baseline;
  std::int64_t m_baseline_timed_at = 0;
  bool m_baseline_from_cache = false;
  /// The solution being graded uses tensor cores (build_result::uses_tensor_cores): its FLOP floor.
  std::optional<bool> m_uses_tensor_cores;
  /// The runners started ahead for the next solution (grade's `next`); destroyed before the scratch root
  /// they run in.
  runners_ahead m_ahead;
  /// The runners of the solution graded last, exiting; waited for before the next one's first case and
  /// at the end (settle_exits()), and destroyed before the scratch root they ran in.
  std::vector<exiting_runner> m_exiting;
  /// When a timing answer last came back, from any runner of this grader: the runner of the next case is
  /// told (timing_spec::last_timing_end_s), since the GPU's clock is the same whichever process timed.
  std::optional<std::chrono::steady_clock::time_point> m_last_timing_end;
  /// [s] of the solution being graded: in its timed cases, in compute-sanitizer, computing (or reading
  /// back) the CPU reference's outputs of its checked calls.
  double m_timing_s = 0, m_sanitizer_s = 0, m_reference_s = 0;
  /// [s] of those timed cases, as the replaying runner reports them: making inputs, checking with the GPU
  /// reference; and of the checked calls, the ones that ended at their time limit.
  double m_inputs_s = 0, m_gpu_reference_s = 0, m_limit_wait_s = 0;
  /// [s] of the solution being graded: waiting, before its timed cases, for the next one's runners to start;
  /// reading its checked calls' outputs and comparing them with the references.
  double m_ahead_wait_s = 0, m_output_check_s = 0;
  /// [s] of its checked calls, as the runner reports them: making their buffers and inputs, and copying their
  /// outputs to the host (into the output window, or files).
  double m_check_inputs_s = 0, m_output_copy_s = 0;
  /// The memory the last checked call's output was read into, for the next (output_files.hpp, take_output).
  std::vector<float> m_output_buffer;
  /// Shared with every recording runner for its checked calls' outputs; made once (window_for_checks).
  std::unique_ptr<output_window> m_window;
  bool m_window_tried = false;
};

} // namespace judge
