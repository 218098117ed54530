// A runner started under an external tool (compute-sanitizer, Nsight Compute) for a few requests: the
// tool's command line goes before the runner's, in the runner's own sandbox (runner_process_options),
// and everything the two print is kept for the caller to read. The runner is started with --profiler
// (no system-call filter: these tools talk to their target over sockets and shared memory) plus the
// caller's flags. Knows nothing about which tool it is, or what its output means.
#pragma once

#include "judge/sandbox/process.hpp"
#include "judge/run/runner_session.hpp"

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace judge {

struct tool_options {
  /// The tool's command line, before the runner's: {"/usr/local/cuda/bin/compute-sanitizer", "--tool",
  /// "memcheck"}. argv[0] must be an absolute path or on the judge's PATH.
  std::vector<std::string> prefix;
  /// Flags added to the runner's own, after --profiler ("--exact-buffers").
  std::vector<std::string> runner_flags;
  /// Variables added to (or replacing in) the runner's environment.
  std::map<std::string, std::string> env;
  /// Folders the tool needs besides the system's (visible read-only in the sandbox).
  std::vector<std::filesystem::path> read_only_paths;
  double limit_seconds = 60;         ///< [s] wall time from start to exit; the group is killed after it
  std::size_t output_cap = 1u << 20; ///< [B] kept per stream (the tool's report and the learner's prints)
};

/// What became of one run under a tool.
struct tool_run {
  bool started = false;
  std::string start_failure; ///< why it did not start, when it did not
  bool timed_out = false;    ///< killed at limit_seconds
  child_process::exit_status exit;
  std::vector<std::string> answers; ///< the runner's lines on fd 3, as sent (JSON, not decoded)
  captured_output out, err;         ///< the tool's and the runner's, interleaved as each wrote them
  double seconds = 0;               ///< [s] from start to exit
};

/// Starts `runner` under `tool`, sends `requests` (one JSON line each; end them with an "end" request)
/// and waits for the process to end, at most tool.limit_seconds.
tool_run run_under_tool(const runner_options& runner, const tool_options& tool,
                        const std::vector<std::string>& requests);

} // namespace judge
