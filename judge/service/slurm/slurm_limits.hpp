// The time and memory a Slurm job asks for, derived from the problem's own limits (problem.yaml's
// `limits`, its cases) and the batch's size, so that a batch graded within those limits never hits the
// job's: a job killed at its time limit is the judge's loss (the batch goes out again), never the
// learner's. The server's options are caps (a batch shrinks to fit the time cap) or, fixed, the values.
// Pure functions: docs/slurm.md has the formulas, tests/judge/service/slurm/slurm_limits_test.cpp checks them.
#pragma once

#include "judge/problem/problem.hpp"
#include "judge/problem/cases.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace judge::service {

/// What of a problem bounds the grading of one solution.
struct slurm_problem_facts {
  double compile_seconds = 60;         ///< [s] limits.compile_seconds
  double case_seconds = 10;            ///< [s] limits.case_seconds: one checked call
  double budget_seconds = 3;           ///< [s] limits.timing_budget_seconds: the timing of one case
  std::size_t cases = 0;               ///< every case (each is checked)
  std::size_t timed_cases = 0;         ///< cases that are timed once checked
  int checks = 2;                      ///< checked calls per case
  bool baseline = false;               ///< a baseline is built and timed once per job
  std::int64_t reference_bytes = 0;    ///< [B] every case's outputs in double, for every check (the reference cache)
  std::int64_t largest_case_bytes = 0; ///< [B] one case's buffers, all of them, in double
};

/// The facts of `spec` with `cases`, `checks` checked calls per case.
slurm_problem_facts problem_facts(const problem_spec& spec, const std::vector<test_case>& cases, int checks);

struct slurm_caps {
  int max_minutes = 60;                ///< [min] --slurm-minutes
  std::int64_t max_memory_mib = 16384; ///< [MiB] --slurm-mem
  bool fixed = false;                  ///< --slurm-fixed-limits: ask exactly the caps, whatever the problem
};

struct slurm_job_limits {
  std::size_t batch = 1;       ///< submissions in the job (≤ the one asked; ≥ 1)
  int minutes = 1;             ///< [min] sbatch --time
  std::int64_t memory_mib = 0; ///< [MiB] sbatch --mem
  bool time_capped = false;    ///< even one submission's bound exceeds the time cap: the cap is asked
  bool memory_capped = false;  ///< the derived memory exceeds the cap: the cap is asked
};

/// [s] the longest grading one solution may take within the problem's limits: its compile, every
/// checked call of every case, and every timed case's hard limit (budget + 4 × case_seconds + 30 s, as
/// grader::time_case waits), plus 1 s a case for starting its runner.
double solution_seconds(const slurm_problem_facts& p);
/// [s] a job grading `batch` submissions: 120 s to start (node, device probe, bandwidth, references),
/// then the baseline (when there is one) and each submission at solution_seconds().
double job_seconds(const slurm_problem_facts& p, std::size_t batch);
/// [MiB] 2 GiB for the judge, nvcc and the runner, the reference cache (at most its 4 GiB limit) and
/// four copies of the largest case's buffers (inputs regenerated, runner copies, outputs read back).
std::int64_t job_memory_mib(const slurm_problem_facts& p);

/// The job for up to `wanted` submissions: the most that fit the time cap (at least one), and its limits.
slurm_job_limits job_limits(const slurm_problem_facts& p, std::size_t wanted, const slurm_caps& caps);

/// sbatch's --mem text ("8G", "512M", "1T", a bare number is MiB) in MiB; nullopt when it is not one.
std::optional<std::int64_t> parse_memory_mib(const std::string& text);

} // namespace judge::service
