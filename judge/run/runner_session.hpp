// Drives one runner process through the protocol (docs/architecture.md): typed requests out, typed
// answers in (both through common/wire_json.hpp, the codec the runner uses too), and how the process
// ended. Knows nothing about verdicts.
#pragma once

#include "process.hpp"
#include "runner_facts.hpp"
#include "wire.hpp"

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace judge {

struct runner_options {
  std::filesystem::path runner;
  /// the shared object the runner loads (--solution); none when empty
  std::filesystem::path solution;
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
  const request_facts& start_facts() const { return m_start; }
  /// The hello of the running runner (after a successful start()).
  const judge_wire::hello_answer& hello() const { return m_hello; }

  /// Sends `request` (a case with checks and no timing) and collects one answer per check, waiting at
  /// most `call_seconds` for each. Stops at the first answer that is not ok, and at the first request
  /// that got no answer (the last facts then say why; the runner has ended or was killed).
  std::vector<call_facts> run_checks(const judge_wire::case_request& request, double call_seconds);
  /// Sends `request` (a case with timing and no checks) and collects the timing answer.
  timing_facts run_timing(const judge_wire::case_request& request, double limit_seconds);

  /// Sends "end", waits for "done" and the exit; kills the runner if it lingers.
  void finish();
  /// stdout+stderr the learner's code printed so far (capped), over every runner process.
  std::string learner_output() const;
  bool sandboxed() const { return m_sandboxed; }
  /// The sandbox layers of the last runner process (with options.sandbox).
  const sandbox_layers& layers() const { return m_layers; }
  /// Why the runner is not sandboxed though the options asked for it ("" otherwise).
  const std::string& sandbox_failure() const { return m_sandbox_failure; }

private:
  using clock_type = std::chrono::steady_clock;
  /// The next answer; nullopt when none came (then `facts` says why, and the runner has ended).
  std::optional<judge_wire::answer> next_answer(clock_type::time_point deadline, request_facts& facts);
  /// Facts for `answer`, which came where `due` was due; ends the runner.
  request_facts unexpected(const judge_wire::answer& answer, const std::string& due);
  /// Waits for the runner to end (killing it at once when `kill`) and keeps its output.
  child_process::exit_status end_child(bool kill);

  runner_options m_options;
  std::unique_ptr<child_process> m_child;
  judge_wire::hello_answer m_hello;
  request_facts m_start;
  std::string m_output;
  std::size_t m_output_dropped = 0;
  bool m_sandboxed = false;
  sandbox_layers m_layers;
  std::string m_sandbox_failure;
};

} // namespace judge
