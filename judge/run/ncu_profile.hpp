// Runs one case's checked call of a runner under Nsight Compute (ncu) and reads its report back as CSV:
// the learner's kernels only (the judge's, named judge_*, are filtered out by name), clocks as the
// driver sets them, caches flushed before every replay pass as grading flushes L2 before every timed
// sample. What the figures mean is grading/profile_digest.hpp's business.
//
// The runner runs with --profiler: without the system-call filter (ncu's injected library talks to its
// front end over sockets) and outside the process sandbox (the sandbox's network namespace has no
// loopback for those sockets). The code is the caller's to trust: `judge profile` runs what its user
// names, and `judge run --explain` profiles only solutions that were just accepted in the sandbox.
//
// TODO(lead): fold into judge/run/runner_under_tool.* (the compute-sanitizer rerun's helper) once merged.
#pragma once

#include "compile.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace judge {

/// Nsight Compute's command-line front end: $JUDGE_NCU, else `ncu` on PATH, else next to the toolchain's
/// nvcc; nullopt when there is none.
std::optional<std::filesystem::path> find_ncu(const toolchain& tools);

struct ncu_request {
  std::filesystem::path ncu;
  std::filesystem::path runner, solution;
  /// What the runner reads on stdin: one case request with its checked call(s), then "end", as JSON lines.
  std::vector<std::string> requests;
  std::vector<std::string> metrics;
  std::filesystem::path report;  ///< where the report goes; it should end in ".ncu-rep"
  std::filesystem::path scratch; ///< an empty folder for the runner's outputs and ncu's temporary files
  double seconds = 120;          ///< [s] the profiled run's wall-time limit (ncu replays each kernel)
  int launch_count = 16;         ///< at most this many of the learner's kernel launches are profiled
};

enum class ncu_outcome {
  ok,
  no_permission, ///< the driver refuses the GPU's performance counters to this user (ERR_NVGPUCTRPERM)
  timed_out,     ///< the profiled run passed ncu_request::seconds and was stopped
  no_kernels,    ///< the run profiled no kernel of the learner's
  failed,        ///< ncu or the runner failed otherwise (ncu_result::detail has their last words)
};

struct ncu_result {
  ncu_outcome outcome = ncu_outcome::failed;
  std::string csv;    ///< the report's raw page (`ncu --import --csv --page raw`), when ok
  std::string detail; ///< for failed: the end of ncu's and the runner's output
  double seconds = 0; ///< [s] the profiled run's wall time
};

/// The arguments of the profiled run (ncu's and the runner's, after the ncu executable itself).
std::vector<std::string> ncu_arguments(const ncu_request& request);

/// Profiles the request's call and reads the report back. Never throws for what ncu or the runner does.
ncu_result run_ncu(const ncu_request& request);

} // namespace judge
