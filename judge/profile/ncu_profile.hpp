// Runs one case's checked call of a runner under Nsight Compute (ncu) and reads its report back as CSV:
// the learner's kernels only (the judge's, named judge_*, are filtered out by name), clocks as the
// driver sets them, caches flushed before every replay pass as grading flushes L2 before every timed
// sample. What the figures mean is profile_digest.hpp's business.
//
// Learner code runs here as in grading: ncu's front end and the runner it starts are one sandboxed
// child (runner_process_options: user, network, mount and PID namespaces, the private root, the
// cgroup's limits, the unprivileged user), so that the front end and the library it injects into the
// runner share the namespaces their local sockets and shared memory need. The private root holds ncu's
// own folder read-only, the scratch folder writable (the report, ncu's temporary files, the runner's
// outputs and answers) and a loopback interface that is up. The runner runs with --profiler: without
// the system-call filter, which ncu's injected library could not work under. The report is read back
// by ncu --import in a sandbox of its own (it is a file learner code could have written), and only
// then copied where the caller asked.
#pragma once

#include "judge/compile/compile.hpp"
#include "judge/sandbox/process.hpp"
#include "judge/sandbox/sandbox_layers.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace judge {

/// Nsight Compute's command-line front end, by find_cuda_tool's rules (tool_path.hpp): $JUDGE_NCU, else
/// the toolchain's CUDA toolkit, else PATH; nullopt when there is none.
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
  /// In the sandbox (as every run of learner code is; false only for tests of the plumbing).
  bool sandbox = true;
  std::vector<std::filesystem::path> hidden_paths;    ///< covered in the sandbox (the secret, the store)
  std::vector<std::filesystem::path> read_only_paths; ///< visible besides the system's, ncu's and the runner's
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
  bool sandboxed = false; ///< whether the profiled run was in the sandbox
  sandbox_layers layers;  ///< which of its layers were in force
};

/// The arguments of the profiled run (ncu's and the runner's, after the ncu executable itself).
std::vector<std::string> ncu_arguments(const ncu_request& request);

/// Where ncu writes the report during the run: in the scratch folder, the one folder the sandbox may write.
std::filesystem::path ncu_report_in_scratch(const ncu_request& request);

/// The profiled run as one child: ncu, its arguments, and the runner's sandbox with what ncu needs.
process_options ncu_profile_process(const ncu_request& request);

/// Reading the report back (ncu --import ... --csv), sandboxed without the GPU.
process_options ncu_import_process(const ncu_request& request);

/// Profiles the request's call and reads the report back. Never throws for what ncu or the runner does.
ncu_result run_ncu(const ncu_request& request);

} // namespace judge
