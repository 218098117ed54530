// Drives one runner process through the protocol (docs/architecture.md) and turns what it says, and
// how it ends, into facts. Knows nothing about verdicts.
#pragma once

#include "process.hpp"
#include "runner_facts.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace judge {

struct runner_options {
  std::filesystem::path runner;
  std::filesystem::path scratch;             ///< created empty; outputs land here
  std::vector<std::string> banned_libraries;
  std::size_t output_cap = 64 * 1024;        // [B]
  bool sandbox = true;
  std::vector<std::filesystem::path> hidden_paths; ///< made empty inside the sandbox
  double hello_seconds = 60;                 // [s] CUDA initialisation may be slow on a cold GPU
};

/// One checked call as the runner reported it, before the judge compares anything.
struct check_answer {
  call_facts facts;                                     ///< everything but the comparison
  std::vector<std::pair<std::string, std::filesystem::path>> output_files; ///< buffer name → file
};

struct timing_answer {
  timing_facts facts;
  std::vector<double> gpu_ms, host_ms, sm_clock_mhz;
  std::vector<bool> throttled;
  std::string method;
  bool cold_l2 = true;
  int warmup_calls = 0;
  std::string stop_reason;   ///< "noise", "budget" or "max_samples"
  bool other_streams = false; ///< solve() left work on other streams that the timing waited for
};

class runner_session {
public:
  explicit runner_session(runner_options options);

  /// Starts the runner (if it is not running) and reads its hello; false if it did not say hello
  /// (then failure() says why).
  bool start();
  const nlohmann::json& hello() const { return m_hello; }

  /// Sends `request` (a "case" with checks) and collects one answer per check, waiting at most
  /// `call_seconds` for each. A runner that dies or times out is killed; the facts say so.
  std::vector<check_answer> run_checks(const nlohmann::json& request, int checks, double call_seconds);
  /// Sends `request` (a "case" with timing) and collects the timing answer.
  timing_answer run_timing(const nlohmann::json& request, double limit_seconds);

  /// Sends "end", waits for "done" and the exit; kills the runner if it lingers.
  void finish();
  const std::string& failure() const { return m_failure; }
  /// stdout+stderr the learner's code printed so far (capped), over every runner process.
  std::string learner_output() const;
  bool sandboxed() const { return m_sandboxed; }
  /// Why the runner is not sandboxed though the options asked for it ("" otherwise).
  const std::string& sandbox_failure() const { return m_sandbox_failure; }

private:
  std::optional<nlohmann::json> next_answer(std::chrono::steady_clock::time_point deadline, bool& timed_out);
  std::string end_child(bool killed_for_time);
  runner_options m_options;
  std::unique_ptr<child_process> m_child;
  nlohmann::json m_hello;
  std::string m_failure;
  std::string m_output;
  std::size_t m_output_dropped = 0;
  bool m_sandboxed = false;
  std::string m_sandbox_failure;
};

} // namespace judge
