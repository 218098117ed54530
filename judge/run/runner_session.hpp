// Drives one runner process through the protocol (docs/architecture.md): typed requests out, typed
// answers in (both through common/wire_json.hpp, the codec the runner uses too), and how the process
// ended. Knows nothing about verdicts.
#pragma once

#include "judge/sandbox/process.hpp"
#include "judge/run/runner_facts.hpp"
#include "common/wire.hpp"

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace judge {

class output_window;

/// The part a runner process plays (harness/runner/runner_main.cpp, docs/security.md "Timing by replay").
enum class runner_role {
  trusted,   ///< the judge's own code (the baseline): checked and timed in one process
  recording, ///< a learner's solution: checked calls, one per timed case recorded; never timed
  replaying, ///< a learner's device code alone: times recorded work and checks every timed output
};

struct runner_options {
  std::filesystem::path runner;
  runner_role role = runner_role::trusted;
  /// the shared object the runner loads (--solution); none when empty
  std::filesystem::path solution;
  /// replaying: the solution's device code (--replay), one fatbin per unit
  std::vector<std::filesystem::path> device_code;
  std::filesystem::path scratch; ///< created empty; outputs land here
  std::vector<std::string> banned_libraries;
  /// The method the runner times with (its --timing flag): the judge's choice, the same for the baseline
  /// and every solution, never the environment's.
  judge_wire::timing_method timing = judge_wire::timing_method::cupti;
  std::size_t output_cap = 64 * 1024; // [B]
  bool sandbox = true;
  std::vector<std::filesystem::path> hidden_paths; ///< made empty inside the sandbox
  /// Visible, read-only, in the sandbox's private root besides the system and the runner's own folder:
  /// the solution's folder, CUDA library folders outside /usr.
  std::vector<std::filesystem::path> read_only_paths;
  double hello_seconds = 60; // [s] CUDA initialisation may be slow on a cold GPU
  /// recording: the runner sets up CUDA and loads the solution only when start() sends "load" (its
  /// --load-on-request), so that start_early() can start it while another solution is graded.
  bool load_on_request = false;
  /// Shared with the runner for the outputs of its checked calls (its --output-window, on fd 4); the
  /// caller keeps it alive while the runner runs. None: every output goes to its file.
  const output_window* outputs = nullptr;
};

/// How a runner process is started: its command line, environment and sandbox (the private root holds the
/// runner's folder, the solution's, the scratch folder writable, and the GPU). One place, for the session
/// and for a runner started under a tool (runner_under_tool.hpp).
process_options runner_process_options(const runner_options& options);

class runner_session {
public:
  explicit runner_session(runner_options options);

  /// Starts the runner (if it is not running) and reads its hello; false if it did not say hello
  /// (then start_facts() says why).
  bool start();
  /// Starts the runner's process without waiting for its hello, so that its CUDA start overlaps other
  /// work; start() later reads the hello (sending "load" first, with options.load_on_request: until then
  /// no learner code runs in it). Does nothing if the process runs already.
  void start_early();
  /// [s] how long start() has waited for hellos, over every runner process of this session.
  double hello_wait_seconds() const { return m_hello_wait_s; }
  const request_facts& start_facts() const { return m_start; }
  /// The hello of the running runner (after a successful start()).
  const judge_wire::hello_answer& hello() const { return m_hello; }

  /// Called with each check's facts as its answer arrives, while the runner goes on to the next check;
  /// `facts` lives only for the call (run_checks returns its own copy in the vector).
  using check_arrived_fn = std::function<void(std::size_t check, const call_facts& facts)>;
  /// Sends `request` (a case with checks and no timing) and collects one answer per check, waiting at
  /// most `call_seconds` for each from the moment the runner could begin it (the request sent, or the
  /// previous answer read). Stops at the first answer that is not ok, and at the first request that got
  /// no answer (the last facts then say why; the runner has ended or was killed). `arrived`, if given,
  /// sees every answered check.
  std::vector<call_facts> run_checks(const judge_wire::case_request& request, double call_seconds,
                                     const check_arrived_fn& arrived = nullptr);
  /// Sends `request` (a case with timing and no checks) and collects the timing answer.
  timing_facts run_timing(const judge_wire::case_request& request, double limit_seconds);

  /// Waits until a runner started early has started: a held one has answered "held" (CUDA set up, nothing
  /// loaded), another has said hello. Its start then no longer runs beside anything the judge times.
  /// False when it did not (it ended, or said something else): the failure is kept for its first
  /// request, as say_hello() keeps one. Not counted in hello_wait_seconds(): the caller counts it.
  bool wait_until_started();
  /// Starts the runner and reads its hello now, as start() does; a start that fails is not tried again
  /// by the next request, which answers with this one's failure (start_facts()) instead.
  bool say_hello();

  /// Sends "end", waits for "done" and the exit; kills the runner if it lingers.
  void finish();
  /// Ends the conversation as finish() does ("end", the hello of one started early, "done"), then hands
  /// over the process, killed (SIGKILL to its group, no code of it runs again) but not yet reaped: the
  /// driver's teardown of its CUDA context then overlaps the judge's other work. Everything it printed
  /// before "done" is kept here (learner_output(); the runner leaves at once after "done"). The caller
  /// waits for the exit (child_process::wait) before the GPU is needed whole. nullptr where the runner
  /// did not say "done": then it has been ended here, as finish() ends it.
  std::unique_ptr<child_process> finish_without_exit();
  /// Sends "end" without waiting, so that the runner's teardown overlaps the judge's other work;
  /// finish() collects it. Nothing more may be asked of the runner after.
  void request_end();
  /// stdout+stderr the learner's code printed so far (capped), over every runner process.
  std::string learner_output() const;
  bool sandboxed() const { return m_sandboxed; }
  /// Whether this runner's process runs learner host code: then nothing it says about itself (an error,
  /// an answer out of step, a line that is not an answer) is the judge's fault.
  bool runs_learner_host_code() const { return m_options.role == runner_role::recording; }
  /// The sandbox layers of the last runner process (with options.sandbox).
  const sandbox_layers& layers() const { return m_layers; }
  /// Why the runner is not sandboxed though the options asked for it ("" otherwise).
  const std::string& sandbox_failure() const { return m_sandbox_failure; }

private:
  using clock_type = std::chrono::steady_clock;
  /// The next answer; nullopt when none came (then `facts` says why, and the runner has ended).
  std::optional<judge_wire::answer> next_answer(clock_type::time_point deadline, request_facts& facts);
  /// m_start for `answer`, which came where a hello (or a held runner's "held") was `due`: no device, or
  /// an answer out of step; the runner has ended.
  void start_refused(const judge_wire::answer& answer, const std::string& due);
  /// Sends "end" and reads up to the runner's "done" (past a hello or "held" not yet read); whether it
  /// came.
  bool end_conversation();
  /// next_answer(), past a held runner's "held" when it has not been read yet.
  std::optional<judge_wire::answer> next_answer_past_held(clock_type::time_point deadline, request_facts& facts);
  /// Facts for `answer`, which came where `due` was due; ends the runner.
  request_facts unexpected(const judge_wire::answer& answer, const std::string& due);
  /// Waits for the runner to end (killing it at once when `kill`) and keeps its output.
  child_process::exit_status end_child(bool kill);

  runner_options m_options;
  std::unique_ptr<child_process> m_child;
  bool m_hello_due = false; ///< started early: the hello is still to be read
  bool m_failed_start_kept = false; ///< say_hello() failed: the next start() answers with that failure
  bool m_held_read = false;         ///< a held runner's "held" has been read
  double m_hello_wait_s = 0;
  bool m_end_requested = false;
  bool m_end_sent = false;
  judge_wire::hello_answer m_hello;
  request_facts m_start;
  std::string m_output;
  std::size_t m_output_dropped = 0;
  bool m_sandboxed = false;
  sandbox_layers m_layers;
  std::string m_sandbox_failure;
};

} // namespace judge
