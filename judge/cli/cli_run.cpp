// judge run <problem> [paths...]: grade solutions and report.
#include "judge/cli/cli.hpp"

#include "judge/report/contest_view.hpp"

#include "judge/grading/profile_case.hpp"
#include "judge/grading/grading_run.hpp"
#include "judge/profile/profile_text.hpp"
#include "judge/report/report_json.hpp"
#include "judge/report/report_junit.hpp"
#include "judge/report/report_terminal.hpp"
#include "judge/store/results_db.hpp"
#include "judge/problem/solution_files.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <map>
#include <memory>
#include <set>

namespace judge::cli {

namespace {
struct run_flags {
  std::string problem;
  std::vector<std::string> paths;
  std::vector<std::string> cases;
  std::string json_file, junit_file, db_file;
  bool no_db = false, warm_l2 = false, no_timing = false, no_sandbox = false, contest = false, rebaseline = false;
  bool explain = false, sanitize = false, strict = false, output_files = false;
  double budget = 0, time_limit = 0, compile_limit = 0;
  unsigned jobs = 0;
};

std::string timing_mode(const grade_options& o) {
  if (!o.timing) return "off";
  return o.cold_l2 ? "cold L2 (flushed before every sample)" : "WARM L2 (not flushed; figures flatter real use)";
}

int run(const context& ctx, const run_flags& f) {
  // Before any work: a report that cannot be written should not cost a whole grading run.
  check_output_path("--json", f.json_file);
  check_output_path("--junit", f.junit_file);
  if (!f.no_db) check_output_path("--db", f.db_file);
  if (f.contest) require_full_sandbox(f.no_sandbox);
  run_request request = grading_request(ctx, f.problem);
  std::vector<std::filesystem::path> paths;
  for (const auto& p : f.paths) paths.emplace_back(p);
  if (paths.empty()) {
    const auto folder = ctx.where.solutions() / f.problem;
    if (!std::filesystem::is_directory(folder) || solutions_in(folder).solutions.empty())
      throw usage_error("no solutions in " + folder.string() + " yet: create one with `bin/judge new " + f.problem +
                        " <your name>`, or name files to grade");
    paths.push_back(folder);
  }
  // By default the learner's own solutions: the shipped example only while there are none.
  // Paths inside the current folder are shown relative to it, as the docs show them.
  std::error_code no_cwd;
  const std::filesystem::path here = std::filesystem::current_path(no_cwd);
  solution_set chosen = f.paths.empty() ? without_shipped_example(collect_solutions(paths)) : collect_solutions(paths);
  if (!no_cwd) chosen = shown_from(std::move(chosen), here);
  if (chosen.solutions.empty()) {
    std::string why = render_skipped(chosen.skipped);
    why.pop_back(); // its last newline: the error line ends it
    throw usage_error("nothing to grade; " + why);
  }
  request.solutions = chosen.solutions;
  request.only_cases = f.cases;
  request.grading.timing = !f.no_timing;
  request.rebaseline = f.rebaseline;
  request.grading.cold_l2 = !f.warm_l2;
  request.grading.budget_seconds = f.budget;
  request.grading.case_seconds = f.time_limit;
  request.grading.sandbox = !f.no_sandbox;
  request.grading.sanitizer.every_case = f.sanitize;
  request.grading.strict = f.strict;
  request.grading.output_window = !f.output_files;
  const std::filesystem::path db_path = ctx.where.store(f.db_file);
  std::unique_ptr<results_db> db;
  if (!f.no_db) db = std::make_unique<results_db>(db_path);
  request.store = db_path;
  request.compile_jobs = f.jobs;
  request.compile_seconds = f.compile_limit;

  // --explain: each accepted solution's largest timed case under Nsight Compute, after its timing (never
  // counted in it), while the grading run still holds the GPU. Not in a contest: the profiled runner is in
  // the runner's sandbox but without its system-call filter, which ncu cannot work under
  // (docs/security.md, "What is not defended").
  const bool profile_accepted = f.explain && !f.contest && !f.no_timing;
  std::map<std::string, std::filesystem::path> sources; // by display path
  for (const solution_entry& s : chosen.solutions) sources[s.display] = s.source;
  run_profiler profiler(request.problems_root, request.testcases_root, f.problem,
                        ctx.where.results() / "profiles" / f.problem);
  bool told_no_ncu = false;
  std::map<std::string, solution_result> profiled; // by display path: results with the profiler's hints
  nlohmann::json profiles = nlohmann::json::object();

  const terminal_style style = terminal_style::for_stream(stdout);
  std::string baseline_label;
  auto on_baseline = [&](const run_outcome& o) {
    baseline_label = o.spec.baseline.label;
    std::fputs(render_heading(o.spec.name, *o.device, timing_mode(request.grading)).c_str(), stdout);
    if (!o.baseline_error.empty()) std::fprintf(stdout, "baseline: %s\n", o.baseline_error.c_str());
    std::vector<std::pair<std::string, std::pair<double, double>>> rows;
    for (std::size_t i = 0; i < o.baseline_timings.size(); ++i)
      rows.push_back({o.baseline_timings[i].first, {o.baseline_timings[i].second.median_ms, o.baseline_speeds[i]}});
    if (!rows.empty())
      std::fputs(render_baseline(o.spec.baseline.label, unit_name(o.spec.unit), rows,
                                 o.baseline_from_cache ? baseline_age_text(o.baseline_timed_at) : "")
                     .c_str(),
                 stdout);
    std::fflush(stdout);
  };
  // A verdict whose failure compute-sanitizer explains is printed before the sanitizer runs, and its
  // explanation once it has: the learner reads the table while the slowed reruns go on.
  std::set<std::string> printed; // display paths
  auto on_verdict = [&](const solution_result& r) {
    const std::string label = baseline_label.empty() ? "baseline" : baseline_label;
    std::fputs(render_solution(f.contest ? contest_view(r) : r, label, style, f.explain).c_str(), stdout);
    std::fflush(stdout);
    printed.insert(r.path);
  };
  auto on_result = [&](const solution_result& graded) {
    solution_result r = graded;
    if (printed.count(r.path)) {
      std::fputs(render_explanation(f.contest ? contest_view(r) : r).c_str(), stdout);
      std::fflush(stdout);
      if (db && r.v != verdict::internal_error && !g_interrupted) db->record(r);
      return;
    }
    result_profile p;
    if (profile_accepted && r.v == verdict::accepted && !g_interrupted) {
      p = profiler.profile(sources.at(r.path), r);
      profiled[r.path] = r;
    }
    const std::string label = baseline_label.empty() ? "baseline" : baseline_label;
    std::fputs(render_solution(f.contest ? contest_view(r) : r, label, style, f.explain).c_str(), stdout);
    if (!p.kernels.empty()) {
      std::fprintf(stdout, "  profile of %s (Nsight Compute, %.1f s; report %s):\n", p.case_name.c_str(), p.seconds,
                   p.report.c_str());
      nlohmann::json kernels = nlohmann::json::array();
      for (const kernel_digest& k : p.kernels) {
        std::fputs(kernel_digest_text(k, "    ").c_str(), stdout);
        kernels.push_back(kernel_digest_json(k));
      }
      profiles[r.path] = {{"case", p.case_name}, {"report", p.report.string()}, {"kernels", kernels}};
    } else if (!p.note.empty() && (!told_no_ncu || profiler.has_ncu())) { // a missing ncu is told once
      std::fprintf(stdout, "  profile: %s\n", p.note.c_str());
      told_no_ncu = !profiler.has_ncu();
    }
    std::fflush(stdout);
    // Only graded results are kept: a run without a GPU or one cut short records nothing for them.
    // A compile or run cut short by Ctrl-C says nothing about the solution, so it is not recorded.
    if (db && r.v != verdict::internal_error && !g_interrupted) db->record(r);
  };
  run_outcome outcome = grade_solutions(request, on_result, on_baseline, on_verdict);
  for (solution_result& r : outcome.results)
    if (const auto it = profiled.find(r.path); it != profiled.end()) r = it->second;
  std::fputs(render_summary(outcome.results, style).c_str(), stdout);
  std::fputs(render_skipped(chosen.skipped).c_str(), stdout);
  std::fputs(render_not_graded(outcome.not_graded).c_str(), stdout);
  if (!f.json_file.empty()) {
    nlohmann::json document = run_to_json(outcome.spec.name, outcome.device.value_or(device_info{}), outcome.results,
                                          chosen.skipped, outcome.not_graded);
    document.update(run_facts_json(outcome));
    if (!profiles.empty()) document["profiles"] = profiles;
    write_json_file(f.json_file, document);
  }
  if (!f.junit_file.empty()) write_junit(f.junit_file, outcome.results);
  if (g_interrupted) {
    std::fprintf(stderr,
                 "judge: interrupted; %zu solution(s) not graded; results of solutions graded before the "
                 "interruption are kept\n",
                 outcome.not_graded.size());
    return interrupted;
  }
  if (!outcome.device) {
    std::fputs(render_no_device_note(outcome.results, outcome.no_device_reason).c_str(), stderr);
    // A compile error is the code's verdict wherever it is found: 1, as on a GPU and through `judge
    // submit`; 3 says only that solutions that compiled could not be run.
    for (const auto& r : outcome.results)
      if (!r.compiled_only && r.v != verdict::accepted) return some_not_accepted;
    return no_gpu;
  }
  for (const auto& r : outcome.results)
    if (r.v != verdict::accepted) return some_not_accepted;
  return all_accepted;
}
} // namespace

void add_run(CLI::App& app, context& ctx) {
  auto [sub, flags] = add_problem_command<run_flags>(
      app, ctx, "run", "grade solutions of a problem (default: every file in solutions/<problem>/)", run);
  sub->add_option("paths", flags->paths, "solution files, or folders of them (one file or one sub-folder per student)");
  sub->add_option("--case", flags->cases, "grade only this case (repeatable)");
  sub->add_option("--json", flags->json_file, "also write the results as JSON to FILE");
  sub->add_option("--junit", flags->junit_file, "also write JUnit XML (one test per case) to FILE");
  add_store_option(*sub, flags->db_file);
  sub->add_flag("--no-db", flags->no_db, "do not record results");
  sub->add_flag("--warm-l2", flags->warm_l2, "time with a warm L2 cache (labelled as such)");
  sub->add_flag("--no-timing", flags->no_timing, "check correctness only");
  sub->add_flag("--explain", flags->explain,
                "under each solution, every timed case's kernel launches and each hint's lesson, not only its "
                "evidence; and, where Nsight Compute is installed, each accepted solution's largest timed case "
                "profiled after its timing: the digest and the profiler's hints");
  sub->add_flag("--sanitize", flags->sanitize,
                "also run every case of every solution under compute-sanitizer (memcheck, racecheck, initcheck; "
                "up to three extra runs per case, each slowed 10-100x; never counted in speed)");
  sub->add_flag("--strict", flags->strict,
                "robustness cases (beyond_limits in cases.yaml) decide like every other case: timed, and a "
                "failure there is the solution's verdict (default: reported on lines of their own, never deciding)");
  sub->add_flag("--output-files", flags->output_files,
                "checked calls hand their outputs to the judge in files, not in memory shared with the runner "
                "(slower on large outputs; for comparison, or where the system gives no shared memory)");
  sub->add_flag("--rebaseline", flags->rebaseline,
                "time the baseline now, even when a run of it on this GPU from the last hour is kept");
  sub->add_flag("--no-sandbox", flags->no_sandbox, "run solutions without namespaces (not recommended)");
  sub->add_flag("--contest", flags->contest,
                "grade only with every sandbox layer in force; show only name, shape and verdict of a failed "
                "hidden case (the store and --json keep the details)");
  sub->add_option("--budget", flags->budget, "timing budget per case [s] (default: the problem's)")
      ->check(CLI::PositiveNumber);
  sub->add_option("--time-limit", flags->time_limit,
                  "wall-time limit of one call of solve() [s] (default: the problem's)")
      ->check(CLI::PositiveNumber);
  sub->add_option("--compile-time-limit", flags->compile_limit,
                  "wall-time limit of one compile [s] (default: the problem's)")
      ->check(CLI::PositiveNumber);
  sub->add_option("--jobs,-j", flags->jobs, "parallel compiles (default: cores)");
}

} // namespace judge::cli
