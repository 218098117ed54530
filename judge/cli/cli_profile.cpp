// judge profile <problem> <solution> [--case NAME]: one case of a solution under Nsight Compute. Keeps
// the report for the GUI under results/profiles/<problem>/ and prints its digest (docs/profile.md) and
// the hints the profiler's figures point to.
#include "judge/cli/cli.hpp"

#include "judge/grading/case_data.hpp"
#include "judge/grading/profile_case.hpp"
#include "judge/run/device_probe.hpp"
#include "judge/run/gpu_lock.hpp"
#include "judge/grading/grader.hpp"
#include "judge/grading/hints.hpp"
#include "judge/profile/profile_text.hpp"
#include "judge/report/report_json.hpp"
#include "judge/report/report_terminal.hpp"

#include <fmt/format.h>

#include <cstdio>

namespace judge::cli {

namespace {
struct profile_flags {
  std::string problem, solution, case_name, json_file;
};

/// results/profiles/<problem>/<solution>-<case>.ncu-rep, the solution named by its file (or folder).
std::filesystem::path report_path(const context& ctx, const std::string& problem, const std::filesystem::path& solution,
                                  const std::string& case_name) {
  const std::string stem = solution.has_stem() ? solution.stem().string() : solution.parent_path().stem().string();
  return ctx.where.results() / "profiles" / problem / (stem + "-" + case_name + ".ncu-rep");
}

int profile(const context& ctx, const profile_flags& f) {
  check_output_path("--json", f.json_file);
  const problem_spec spec = load_problem(ctx.where.problems() / f.problem);
  const auto cases = load_cases(spec, ctx.where.testcases() / f.problem / "cases.yaml");
  const std::size_t index =
      f.case_name.empty() ? default_profile_case(spec, cases) : index_of_case(spec, cases, f.case_name);
  const test_case& c = cases[index];
  const probe_result probe = probe_device(false);
  if (!probe.device) {
    std::fprintf(stderr, "judge: no CUDA device to profile on%s\n",
                 probe.error.empty() ? "" : (": " + probe.error).c_str());
    return no_gpu;
  }
  toolchain tools = toolchain_for(probe);
  tools.stop = &g_interrupted;
  const auto ncu = find_ncu(tools);
  if (!ncu) {
    std::fprintf(stderr, "judge: Nsight Compute (ncu) is not installed: put it on PATH, or name it in JUDGE_NCU\n");
    return internal_failure;
  }
  const build_result build = build_runner(spec, f.solution, runner_kind::solution, tools);
  if (build.status != build_status::ok) {
    std::fprintf(stderr, "judge: %s does not build:\n%s\n", f.solution.c_str(), build.message.c_str());
    return some_not_accepted;
  }
  const std::filesystem::path report = report_path(ctx, f.problem, f.solution, c.name);
  std::filesystem::create_directories(report.parent_path());
  const gpu_lock lock(
      gpu_lock_dir(), probe.device->uuid, "judge profile " + f.problem,
      [](const gpu_lock_holder& h) {
        std::fprintf(stderr, "judge: waiting for the GPU, held by pid %ld (%s, since %s)\n", h.pid, h.command.c_str(),
                     h.since.c_str());
      },
      &g_interrupted);
  if (!lock.held()) return interrupted;
  std::fprintf(stdout,
               "profile of %s on case %s (%s), %s, under Nsight Compute (clocks as set, caches flushed before "
               "every replay pass)\n",
               f.solution.c_str(), c.name.c_str(), shape_text(spec, c).c_str(), probe.device->name.c_str());
  std::fflush(stdout);
  const case_profile p = profile_case(spec, cases, index, build, *ncu, *probe.device, report);
  if (p.run.outcome != ncu_outcome::ok) {
    std::fprintf(stderr, "judge: %s\n", ncu_failure_text(p.run).c_str());
    return internal_failure;
  }
  std::fprintf(stdout, "%zu kernel launch(es) profiled in %.1f s; report: %s (open it with ncu-ui)\n", p.kernels.size(),
               p.run.seconds, report.c_str());
  for (const kernel_digest& k : p.kernels) std::fputs(kernel_digest_text(k).c_str(), stdout);
  solution_result r;
  r.kernels = build.kernels;
  r.device = *probe.device;
  hint_facts facts{r, {}, sm_limits_for(probe.device->cc)};
  facts.profile = p.kernels;
  facts.profiled_case = c.name;
  facts.tensor_cores_allowed = spec.tensor_cores_allowed;
  const std::vector<hint> hints = profiler_hints(facts);
  for (const hint& h : hints)
    std::fprintf(stdout, "  hint [%s]: %s\n    → %s\n", h.id.c_str(), h.evidence.c_str(), h.lesson.c_str());
  if (!f.json_file.empty()) {
    nlohmann::json kernels = nlohmann::json::array(), hint_list = nlohmann::json::array();
    for (const kernel_digest& k : p.kernels) kernels.push_back(kernel_digest_json(k));
    for (const hint& h : hints) hint_list.push_back({{"id", h.id}, {"evidence", h.evidence}, {"lesson", h.lesson}});
    write_json_file(f.json_file, {{"problem", f.problem},
                                  {"solution", f.solution},
                                  {"case", c.name},
                                  {"device", device_json(*probe.device)},
                                  {"report", report.string()},
                                  {"seconds", p.run.seconds},
                                  {"kernels", kernels},
                                  {"hints", hint_list}});
  }
  return all_accepted;
}
} // namespace

void add_profile(CLI::App& app, context& ctx) {
  auto [sub, flags] = add_problem_command<profile_flags>(
      app, ctx, "profile",
      "profile one case of a solution with Nsight Compute: a report for its GUI, a digest and hints", profile);
  sub->add_option("solution", flags->solution, "solution file (or folder)")->required();
  sub->add_option("--case", flags->case_name, "case name (default: the timed case with the most work)");
  sub->add_option("--json", flags->json_file, "also write the digest and hints as JSON to FILE");
}

} // namespace judge::cli
