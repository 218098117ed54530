#include "judge/service/slurm/slurm_limits.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace judge::service {

namespace {
constexpr double start_seconds = 120;       // [s] node start, device probe, bandwidth, first references
constexpr double runner_start_seconds = 1;  // [s] per case: a runner process and its CUDA context
constexpr double timing_slack_seconds = 30; // [s] grader::time_case's hard limit adds it
constexpr std::int64_t base_mib = 2048;     // [MiB] the judge, nvcc (cicc, ptxas) and the runner
constexpr std::int64_t reference_cache_limit = std::int64_t{4} << 30; // [B] reference_cache's default
constexpr std::int64_t mib = std::int64_t{1} << 20;
} // namespace

slurm_problem_facts problem_facts(const problem_spec& spec, const std::vector<test_case>& cases, int checks) {
  slurm_problem_facts p;
  p.compile_seconds = spec.limits.compile_seconds;
  p.case_seconds = spec.limits.case_seconds;
  p.budget_seconds = spec.limits.timing_budget_seconds;
  p.cases = cases.size();
  p.checks = checks;
  p.baseline = !spec.baseline.source.empty();
  for (const test_case& c : cases) {
    if (c.timed) ++p.timed_cases;
    std::int64_t outputs = 0, all = 0;
    const auto counts = buffer_counts(spec, c);
    for (const parameter* b : spec.buffers()) {
      const std::int64_t bytes = counts.at(b->name) * static_cast<std::int64_t>(sizeof(double));
      all += bytes;
      if (b->role == param_role::output) outputs += bytes;
    }
    p.reference_bytes += outputs * checks;
    p.largest_case_bytes = std::max(p.largest_case_bytes, all);
  }
  return p;
}

double solution_seconds(const slurm_problem_facts& p) {
  return p.compile_seconds + static_cast<double>(p.cases) * (p.checks * p.case_seconds + runner_start_seconds) +
         static_cast<double>(p.timed_cases) * (p.budget_seconds + 4 * p.case_seconds + timing_slack_seconds);
}

double job_seconds(const slurm_problem_facts& p, std::size_t batch) {
  return start_seconds + static_cast<double>(batch + (p.baseline ? 1 : 0)) * solution_seconds(p);
}

std::int64_t job_memory_mib(const slurm_problem_facts& p) {
  const std::int64_t bytes = std::min(p.reference_bytes, reference_cache_limit) + 4 * p.largest_case_bytes;
  return base_mib + (bytes + mib - 1) / mib;
}

slurm_job_limits job_limits(const slurm_problem_facts& p, std::size_t wanted, const slurm_caps& caps) {
  slurm_job_limits out;
  out.batch = std::max<std::size_t>(1, wanted);
  if (caps.fixed) {
    out.minutes = caps.max_minutes;
    out.memory_mib = caps.max_memory_mib;
    return out;
  }
  const double cap_seconds = 60.0 * caps.max_minutes;
  while (out.batch > 1 && job_seconds(p, out.batch) > cap_seconds) --out.batch;
  const double seconds = job_seconds(p, out.batch);
  out.time_capped = seconds > cap_seconds;
  out.minutes = out.time_capped ? caps.max_minutes : static_cast<int>(std::ceil(seconds / 60.0));
  out.memory_mib = job_memory_mib(p);
  out.memory_capped = out.memory_mib > caps.max_memory_mib;
  if (out.memory_capped) out.memory_mib = caps.max_memory_mib;
  return out;
}

std::optional<std::int64_t> parse_memory_mib(const std::string& text) {
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text.front()))) return std::nullopt;
  std::size_t used = 0;
  std::int64_t n = 0;
  try {
    n = std::stoll(text, &used);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  const std::string unit = text.substr(used);
  if (unit.empty() || unit == "M" || unit == "m") return n;
  if (unit == "K" || unit == "k") return (n + 1023) / 1024;
  if (unit == "G" || unit == "g") return n * 1024;
  if (unit == "T" || unit == "t") return n * 1024 * 1024;
  return std::nullopt;
}

} // namespace judge::service
