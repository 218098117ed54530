// A trusted tool run to completion through the process module (process.hpp): Slurm's client (sbatch,
// squeue, scancel), nvidia-smi. Its output is captured with a cap, a deadline kills it (and what it
// started), and how it ended is reported; a tool that hangs costs its caller `limit`, never the caller's
// thread. No sandbox and the judge's whole environment: these are the system's own tools, configured by
// it (SLURM_CONF, a job's SLURM_* variables), never learner code.
#pragma once

#include "judge/sandbox/process.hpp"

#include <chrono>
#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace judge {

struct tool_result {
  std::string start_failure; ///< why it could not start ("cannot start squeue (not found on PATH)"); "" if it ran
  run_result run;            ///< how it ended and what it printed (each stream up to the cap)

  bool started() const { return start_failure.empty(); }
  /// Exited with status 0 within the limit.
  bool succeeded() const { return started() && run.status.exited && run.status.exit_code == 0; }
  /// Killed at the limit.
  bool timed_out() const { return started() && run.status.killed_by_judge; }
  /// One line for a log: "exited with code 1: <stderr>", "did not finish within 30 s", the start failure.
  std::string failure_text(std::chrono::duration<double> limit) const;
};

/// Runs `argv` (argv[0] found on PATH unless it is a path) with `environment` and waits up to `limit`;
/// at the limit its process group is killed. Never throws for a tool that cannot start: start_failure
/// says why.
tool_result run_trusted_tool(const std::vector<std::string>& argv, std::chrono::duration<double> limit,
                             const std::map<std::string, std::string>& environment = judge_environment(),
                             std::size_t output_cap = 1u << 20);

} // namespace judge
