#include "judge/base/environment.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <stdexcept>

namespace judge {

const std::vector<env_variable>& judge_variables() {
  static const std::vector<env_variable> table = {
      {judge_env::root, "JUDGE_ROOT",
       "the installed problems (<prefix>/share/gpu-judge); the build tree's judge: the source tree (bin/judge sets "
       "it to its own checkout)",
       "the folder holding problems/, testcases/, solutions/ and results/ (--root wins)"},
      {judge_env::cache_dir, "JUDGE_CACHE_DIR",
       "$XDG_CACHE_HOME/gpu-judge/runner-cache, else ~/.cache/gpu-judge/runner-cache; the build tree's judge: "
       "build/runner-cache",
       "the runner cache: built runners and solutions, CPU references, baseline timings"},
      {judge_env::secret_file, "JUDGE_SECRET_FILE",
       "$XDG_CONFIG_HOME/gpu-judge/secret, else ~/.config/gpu-judge/secret (made on first use)",
       "the judge secret, which keys the seeds of hidden cases; learner code never sees it"},
      {judge_env::archs, "JUDGE_ARCHS",
       "the GPU's compile target (its compute capability; 90a on Hopper, 100a on the B200, as LeetGPU compiles); "
       "without a GPU, the build's default (JUDGE_DEFAULT_ARCHS when configured, 90a unless set)",
       "the targets solutions are compiled for, separated by ',' (90a, sm_90, 9.0)"},
      {judge_env::nvcc, "JUDGE_NVCC", "the CUDA toolkit's nvcc found when the judge was configured",
       "the nvcc that compiles solutions, runners and baselines"},
      {judge_env::host_cxx, "JUDGE_HOST_CXX", "the C++ compiler the judge was built with",
       "the host compiler nvcc uses, and the CPU references' compiler"},
      {judge_env::ncu, "JUDGE_NCU", "the toolkit of nvcc, then $CUDA_HOME's, then PATH",
       "Nsight Compute's ncu (judge profile, judge run --explain)"},
      {judge_env::compute_sanitizer, "JUDGE_COMPUTE_SANITIZER", "the toolkit of nvcc, then $CUDA_HOME's, then PATH",
       "compute-sanitizer, which explains a failing case (and judge run --sanitize)"},
      {judge_env::lock_dir, "JUDGE_LOCK_DIR", "/tmp/gpu-judge-locks",
       "the folder of the GPU locks: one judge times on a GPU at a time"},
      {judge_env::server, "JUDGE_SERVER", "none: judge submit then needs --server",
       "the online judge's URL for judge submit (--server wins)"},
      {judge_env::token, "JUDGE_TOKEN",
       "the first line of $XDG_CONFIG_HOME/gpu-judge/token, else of ~/.config/gpu-judge/token (mode 600)",
       "judge submit's token (never taken on the command line)"},
      {judge_env::job_token, "JUDGE_JOB_TOKEN", "none: judge slurm-job refuses to start",
       "a Slurm job's token for the server's job routes; the job script of judge serve --backend slurm sets it"},
      {judge_env::build_dir, "JUDGE_BUILD_DIR", "build/ in the checkout of bin/judge",
       "the build folder bin/judge and scripts/test.sh build the judge in and run it from (read by those scripts, "
       "not by the judge); one configured for another checkout is refused, never reconfigured"},
  };
  return table;
}

const char* env_name(judge_env v) {
  for (const env_variable& e : judge_variables())
    if (e.which == v) return e.name;
  throw std::logic_error("a judge_env without a row in judge_variables()");
}

const char* non_empty_env(const char* name) {
  const char* value = std::getenv(name);
  return value && *value ? value : nullptr;
}

std::optional<std::string> env_value(judge_env v) {
  if (const char* value = non_empty_env(env_name(v))) return std::string(value);
  return std::nullopt;
}

std::string environment_help() {
  std::string out = "Environment variables the judge reads (set to \"\", a variable counts as unset):\n";
  for (const env_variable& e : judge_variables())
    out += fmt::format("\n  {}\n      {}\n      unset: {}\n", e.name, e.meaning, e.unset);
  return out;
}

} // namespace judge
