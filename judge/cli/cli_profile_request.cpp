// judge profile-request <problem> [solution] --case NAME: for profilers (Nsight Compute) that must start
// a runner themselves. Builds the runner and prints its path on the first line, then the requests to
// feed it on standard input: one checked call of the case (and, with --timed N, exactly N timed samples
// in the judge's own state: each after its L2 flush), then "end". scripts/fidelity_benchmark.py uses it
// to compare the judge's timing with ncu's.
#include "judge/cli/cli.hpp"

#include "judge/grading/case_data.hpp"
#include "judge/problem/check_seed.hpp"
#include "judge/compile/compile.hpp"
#include "judge/run/device_probe.hpp"
#include "judge/base/usage_error.hpp"
#include "judge/problem/cases.hpp"
#include "common/wire_json.hpp"

#include <cstdio>
#include <memory>
#include <optional>

namespace judge::cli {

namespace {
struct profile_flags {
  std::string problem, solution, case_name;
  int timed = 0;
};

int profile_request(const context& ctx, const profile_flags& f) {
  const problem_spec spec = load_problem(ctx.where.problems() / f.problem);
  const auto cases = load_cases(spec, ctx.where.testcases() / f.problem / "cases.yaml");
  const std::size_t index = index_of_case(spec, cases, f.case_name);
  const toolchain tools = toolchain_for(probe_device(false));
  const bool baseline = f.solution.empty();
  if (baseline && spec.baseline.source.empty()) throw usage_error("problem " + f.problem + " has no baseline");
  const auto build = build_runner(spec, baseline ? spec.baseline.source : std::filesystem::path(f.solution),
                                  baseline ? runner_kind::baseline : runner_kind::solution, tools);
  if (build.status != build_status::ok) {
    std::fprintf(stderr, "judge: %s does not build:\n%s\n", baseline ? "the baseline" : f.solution.c_str(),
                 build.message.c_str());
    return some_not_accepted;
  }
  const test_case& c = cases[index];
  const std::uint64_t seed = check_seed(load_or_create_secret(secret_path()), spec.name, c, 0);
  std::optional<judge_wire::timing_spec> timing;
  if (f.timed > 0) {
    // Exactly N samples whatever their precision: under a profiler each kernel takes milliseconds.
    timing.emplace();
    timing->min_samples = timing->max_samples = f.timed;
    timing->min_s = 0;
    timing->budget_s = 600;
  }
  std::printf("%s\n%s\n%s\n{\"type\":\"end\"}\n", build.runner.c_str(), build.solution.c_str(),
              judge_wire::encode(make_case_request(spec, c, static_cast<int>(index), {seed}, timing)).c_str());
  return 0;
}
} // namespace

void add_profile_request(CLI::App& app, context& ctx) {
  auto [sub, flags] = add_problem_command<profile_flags>(
      app, ctx, "profile-request",
      "print a runner's path, its solution's and the requests for one call (for profilers)", profile_request);
  sub->add_option("solution", flags->solution, "solution file (default: the problem's baseline)");
  sub->add_option("--case", flags->case_name, "case name")->required();
  sub->add_option("--timed", flags->timed, "also time the case with exactly N samples, as the judge does")
      ->check(CLI::Range(0, 10000));
}

} // namespace judge::cli
