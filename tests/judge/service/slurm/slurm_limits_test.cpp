#include "catch.hpp"
#include "judge/problem/problem.hpp"
#include "judge/service/slurm/slurm_limits.hpp"
#include "judge/problem/cases.hpp"

#include <filesystem>

using namespace judge;
using namespace judge::service;

#if JUDGE_CATCH_MAJOR >= 3
using Catch::Approx; // Catch2 2.13 declares it globally
#endif

namespace {
/// 10 cases, 2 of them timed, no baseline: 60 + 10·(2·10 + 1) + 2·(3 + 40 + 30) = 416 s a solution.
slurm_problem_facts ten_cases() {
  slurm_problem_facts p;
  p.compile_seconds = 60;
  p.case_seconds = 10;
  p.budget_seconds = 3;
  p.cases = 10;
  p.timed_cases = 2;
  p.checks = 2;
  return p;
}
} // namespace

TEST_CASE("one solution's bound adds its compile, every checked call and every timed case's hard limit",
          "[service][slurm]") {
  CHECK(solution_seconds(ten_cases()) == Approx(416));
  slurm_problem_facts p = ten_cases();
  p.case_seconds = 1;
  p.budget_seconds = 2;
  p.compile_seconds = 30;
  // 30 + 10·(2 + 1) + 2·(2 + 4 + 30)
  CHECK(solution_seconds(p) == Approx(132));
}

TEST_CASE("a job's time grows with its batch and counts the baseline as one more solution", "[service][slurm]") {
  slurm_problem_facts p = ten_cases();
  CHECK(job_seconds(p, 1) == Approx(120 + 416));
  CHECK(job_seconds(p, 4) == Approx(120 + 4 * 416));
  p.baseline = true;
  CHECK(job_seconds(p, 4) == Approx(120 + 5 * 416));
}

TEST_CASE("a job asks the minutes its batch needs, rounded up, and its memory from the cases", "[service][slurm]") {
  slurm_problem_facts p = ten_cases();
  p.reference_bytes = std::int64_t{300} << 20;   // 300 MiB of reference outputs
  p.largest_case_bytes = std::int64_t{50} << 20; // 50 MiB, four copies
  const slurm_job_limits l = job_limits(p, 2, slurm_caps{60, 16384, false});
  CHECK(l.batch == 2);
  CHECK(l.minutes == 16); // (120 + 2·416) s = 952 s = 15.9 min
  CHECK(l.memory_mib == 2048 + 300 + 200);
  CHECK_FALSE(l.time_capped);
  CHECK_FALSE(l.memory_capped);
}

TEST_CASE("a batch shrinks to fit the time cap, and one submission over it asks the cap", "[service][slurm]") {
  const slurm_problem_facts p = ten_cases();
  // 20 min = 1200 s: 120 + 2·416 = 952 fits, 120 + 3·416 = 1368 does not.
  const slurm_job_limits shrunk = job_limits(p, 8, slurm_caps{20, 16384, false});
  CHECK(shrunk.batch == 2);
  CHECK(shrunk.minutes == 16);
  CHECK_FALSE(shrunk.time_capped);
  const slurm_job_limits over = job_limits(p, 8, slurm_caps{5, 16384, false});
  CHECK(over.batch == 1);
  CHECK(over.minutes == 5);
  CHECK(over.time_capped);
}

TEST_CASE("the reference cache counts at most its 4 GiB limit and memory over the cap asks the cap",
          "[service][slurm]") {
  slurm_problem_facts p = ten_cases();
  p.reference_bytes = std::int64_t{10} << 30;
  CHECK(job_memory_mib(p) == 2048 + 4096);
  const slurm_job_limits l = job_limits(p, 1, slurm_caps{60, 4096, false});
  CHECK(l.memory_mib == 4096);
  CHECK(l.memory_capped);
}

TEST_CASE("fixed limits ask exactly the caps, whatever the problem", "[service][slurm]") {
  const slurm_job_limits l = job_limits(ten_cases(), 8, slurm_caps{5, 1000, true});
  CHECK(l.batch == 8);
  CHECK(l.minutes == 5);
  CHECK(l.memory_mib == 1000);
}

TEST_CASE("a problem's facts come from its limits and cases", "[service][slurm]") {
  const std::filesystem::path root = JUDGE_SOURCE_DIR;
  const problem_spec spec = load_problem(root / "problems" / "vector_add");
  const std::vector<test_case> cases = load_cases(spec, root / "testcases" / "vector_add" / "cases.yaml");
  const slurm_problem_facts p = problem_facts(spec, cases, 2);
  CHECK(p.compile_seconds == spec.limits.compile_seconds);
  CHECK(p.case_seconds == spec.limits.case_seconds);
  CHECK(p.budget_seconds == spec.limits.timing_budget_seconds);
  CHECK(p.cases == cases.size());
  std::size_t timed = 0;
  std::int64_t outputs = 0, largest = 0;
  for (const test_case& c : cases) {
    timed += c.timed ? 1 : 0;
    const auto counts = buffer_counts(spec, c);
    std::int64_t all = 0;
    for (const parameter* b : spec.buffers()) {
      all += counts.at(b->name) * 8;
      if (b->role == param_role::output) outputs += counts.at(b->name) * 8 * 2;
    }
    largest = std::max(largest, all);
  }
  CHECK(p.timed_cases == timed);
  CHECK(p.reference_bytes == outputs);
  CHECK(p.largest_case_bytes == largest);
  CHECK(p.baseline == !spec.baseline.source.empty());
  CHECK(p.reference_bytes > 0);
}

TEST_CASE("sbatch memory sizes are read in MiB and anything else is refused", "[service][slurm]") {
  CHECK(parse_memory_mib("8G") == 8192);
  CHECK(parse_memory_mib("512M") == 512);
  CHECK(parse_memory_mib("700") == 700);
  CHECK(parse_memory_mib("2048K") == 2);
  CHECK(parse_memory_mib("1T") == 1048576);
  CHECK_FALSE(parse_memory_mib(""));
  CHECK_FALSE(parse_memory_mib("lots"));
  CHECK_FALSE(parse_memory_mib("8GB"));
  CHECK_FALSE(parse_memory_mib("-1G"));
}
