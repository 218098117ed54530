// The environment variables the judge reads, in one table: each JUDGE_* variable's name, what holds
// when it is unset, and what it means (`judge --help-env` prints the table; docs/deploy.md explains the
// settings). Every folder reads them, and the variables its paths follow (HOME, XDG_CONFIG_HOME, ...),
// through the two readers here, by one rule: a variable set to "" counts as unset.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace judge {

/// Every JUDGE_* variable the judge reads.
enum class judge_env {
  root,              ///< JUDGE_ROOT
  cache_dir,         ///< JUDGE_CACHE_DIR
  secret_file,       ///< JUDGE_SECRET_FILE
  archs,             ///< JUDGE_ARCHS
  nvcc,              ///< JUDGE_NVCC
  host_cxx,          ///< JUDGE_HOST_CXX
  ncu,               ///< JUDGE_NCU
  compute_sanitizer, ///< JUDGE_COMPUTE_SANITIZER
  lock_dir,          ///< JUDGE_LOCK_DIR
  server,            ///< JUDGE_SERVER
  token,             ///< JUDGE_TOKEN
  job_token,         ///< JUDGE_JOB_TOKEN
  build_dir,         ///< JUDGE_BUILD_DIR (bin/judge's and scripts/test.sh's; the judge itself never reads it)
};

struct env_variable {
  judge_env which;
  const char* name;    ///< "JUDGE_ROOT"
  const char* unset;   ///< what holds when it is unset or empty, in words
  const char* meaning; ///< what it sets, and which commands read it
};

/// Every JUDGE_* variable, in the order `judge --help-env` shows them.
const std::vector<env_variable>& judge_variables();

/// The name of `v` ("JUDGE_ROOT").
const char* env_name(judge_env v);

/// The value of `v`, or nullopt when it is unset or empty.
std::optional<std::string> env_value(judge_env v);

/// The value of any other variable (HOME, XDG_CONFIG_HOME, SLURM_JOB_ID, ...), or nullptr when it is unset
/// or empty.
const char* non_empty_env(const char* name);

/// The table for `judge --help-env`: a block per variable (name, meaning, what holds when unset).
std::string environment_help();

} // namespace judge
