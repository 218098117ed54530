// judge verify <problem>: every example solution in problems/<p>/submissions/<verdict>/ must get the
// verdict its folder names (Kattis's rule for a problem package). With --compile-only (or without a GPU)
// only the compile is checked: the compile_error examples must fail to compile (saying why), every other
// example must compile. An example may also name a hint it must get ("// Expected hint: <id>", a rule's
// id in judge/grading/hint_rules.cpp): checked on a GPU, the profiler's hints with Nsight Compute.
#include "judge/cli/cli.hpp"

#include "judge/base/file_input.hpp"
#include "judge/grading/hints.hpp"
#include "judge/grading/profile_case.hpp"
#include "judge/problem/verdicts.hpp"

#include "judge/grading/grading_run.hpp"
#include "judge/report/not_run_text.hpp"
#include "judge/report/report_terminal.hpp"
#include "judge/sanitizer/sanitizer_expectation.hpp"
#include "judge/sanitizer/sanitizer_text.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <sstream>

namespace judge::cli {

namespace {
struct verify_flags {
  std::string problem;
  bool no_timing = false;
  bool compile_only = false;
  bool strict = false;
  double budget = 0;
};

/// The first few lines of a compile error that say something, indented under its example's line.
std::string first_lines(const std::string& message) {
  constexpr int max_lines = 4;
  constexpr std::size_t max_line_chars = 300;
  std::istringstream lines(message);
  std::string shown, line;
  for (int n = 0; n < max_lines && std::getline(lines, line);) {
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    shown += "      " + line.substr(0, max_line_chars) + "\n";
    ++n;
  }
  return shown;
}

int verify(const context& ctx, const verify_flags& f) {
  run_request request = grading_request(ctx, f.problem);
  const auto submissions = request.problems_root / f.problem / "submissions";
  if (!std::filesystem::is_directory(submissions))
    throw usage_error(fmt::format("{} does not exist: put example solutions in submissions/<expected verdict>/",
                                  submissions.string()));
  std::map<std::string, verdict> expected; // by display path
  std::vector<std::filesystem::path> folders;
  for (const auto& e : std::filesystem::directory_iterator(submissions)) {
    if (!e.is_directory()) continue;
    const auto v = verdict_from_folder(e.path().filename().string());
    if (!v)
      throw usage_error(fmt::format("{}: a submissions folder must be named after a verdict (accepted, wrong_answer, "
                                    "compile_error, run_time_error, time_limit_exceeded)",
                                    e.path().string()));
    folders.push_back(e.path());
  }
  std::sort(folders.begin(), folders.end());
  for (const auto& folder : folders)
    for (const auto& s : collect_solutions({folder}).solutions)
      expected[s.display] = *verdict_from_folder(folder.filename().string());
  const solution_set chosen = collect_solutions(folders);
  request.solutions = chosen.solutions;
  // What an example declares in comments of its file: what compute-sanitizer must find, and whether only
  // a timed run can reach its verdict (`// Caught when timed`: unchecked without timing).
  std::map<std::string, sanitizer_expectation> sanitizer_expected; // by display path
  std::set<std::string> caught_when_timed_only;                     // by display path
  for (const solution_entry& s : chosen.solutions) {
    if (!std::filesystem::is_regular_file(s.source)) continue;
    try {
      const std::string text = read_file(s.source);
      if (auto e = find_sanitizer_expectation(text)) sanitizer_expected.emplace(s.display, *e);
      if (caught_when_timed(text)) caught_when_timed_only.insert(s.display);
    } catch (const std::runtime_error& e) {
      throw usage_error(fmt::format("{}: {}", s.source.string(), e.what()));
    }
  }

  request.grading.timing = !f.no_timing;
  request.grading.budget_seconds = f.budget > 0 ? f.budget : 1.0;
  request.compile_only = f.compile_only;
  request.check_package = f.compile_only;
  request.grading.strict = f.strict;

  std::map<std::string, std::filesystem::path> sources; // by display path
  for (const solution_entry& s : chosen.solutions) sources[s.display] = s.source;
  run_profiler profiler(request.problems_root, request.testcases_root, f.problem,
                        ctx.where.results() / "profiles" / f.problem);
  // The hints example `r` declares: each must be among its hints, the profiler's included. Returns the
  // mismatches; prints one line per expected hint.
  auto check_expected_hints = [&](const solution_result& graded) {
    const std::vector<std::filesystem::path> units = solution_units(sources.at(graded.path));
    std::error_code unreadable;
    const std::vector<std::string> ids =
        expected_hints(units.empty() ? "" : read_file(units.front(), unreadable).value_or(""));
    if (ids.empty()) return 0;
    if (graded.compiled_only || graded.v != verdict::accepted || f.no_timing) {
      for (const std::string& id : ids)
        std::fprintf(stdout, "      expected hint %s: not checked (%s)\n", id.c_str(),
                     graded.compiled_only ? "not run: hints need the GPU's figures"
                     : f.no_timing        ? "--no-timing"
                                          : "the example was not accepted");
      return 0;
    }
    // The profiler runs only for a hint of its own: grading's hints are in the result already.
    auto from_profiler = [](const std::string& id) {
      return std::any_of(hint_rules().begin(), hint_rules().end(),
                         [&](const hint_rule& rule) { return rule.id == id && rule.source == hint_source::profiler; });
    };
    solution_result r = graded;
    result_profile p;
    if (std::any_of(ids.begin(), ids.end(), from_profiler)) p = profiler.profile(sources.at(r.path), r);
    int missing = 0;
    for (const std::string& id : ids) {
      const bool got = std::any_of(r.hints.begin(), r.hints.end(), [&](const hint& h) { return h.id == id; });
      if (!got && from_profiler(id) && !p.note.empty()) {
        std::fprintf(stdout, "      expected hint %s: not checked (%s)\n", id.c_str(), p.note.c_str());
        continue;
      }
      missing += got ? 0 : 1;
      std::fprintf(stdout, "      expected hint %s: %s\n", id.c_str(), got ? "ok" : "MISSING");
    }
    if (missing)
      for (const hint& h : r.hints) std::fprintf(stdout, "        it got [%s]: %s\n", h.id.c_str(), h.evidence.c_str());
    return missing;
  };

  const terminal_style style = terminal_style::for_stream(stdout);
  // An example that is not graded would pass verify unchecked: each skipped entry is a mismatch.
  std::fputs(render_skipped(chosen.skipped).c_str(), stdout);
  int mismatches = static_cast<int>(chosen.skipped.size());
  bool ran = false;
  auto on_result = [&](const solution_result& r) {
    const verdict want = expected.at(r.path);
    const bool not_run = r.compiled_only;
    // Compiled but not run says all there is to say about a compile_error example: it is wrong.
    bool ok = not_run ? want != verdict::compile_error : r.v == want;
    // Graded without timing, an example caught only when timed is accepted: that says nothing either way.
    const bool needs_timing =
        !ok && !not_run && f.no_timing && r.v == verdict::accepted && caught_when_timed_only.count(r.path) != 0;
    if (needs_timing) ok = true;
    // Its declared sanitizer finding, where a sanitizer ran (on a GPU with compute-sanitizer installed).
    std::string sanitizer_note;
    if (const auto e = sanitizer_expected.find(r.path); e != sanitizer_expected.end() && !not_run) {
      std::vector<sanitizer_run> runs; // of every case
      for (const case_result& c : r.cases) runs.insert(runs.end(), c.sanitizer.begin(), c.sanitizer.end());
      if (!sanitizer_checked(runs)) {
        sanitizer_note = "      sanitizer finding not checked: no sanitizer run could check the case";
        for (const sanitizer_run& run : runs) sanitizer_note += "; " + run_summary(run);
      } else if (!sanitizer_found(runs, e->second)) {
        ok = false;
        sanitizer_note = "      expected sanitizer: " + e->second.text + "; it found:";
        for (const sanitizer_run& run : runs) {
          sanitizer_note += "\n        " + run_summary(run);
          for (const sanitizer_finding& finding : run.findings)
            sanitizer_note += "\n        - " + finding_text(finding);
        }
      } else {
        sanitizer_note = "      expected sanitizer: " + e->second.text + ": ok"; // said, as a found hint is
      }
    }
    if (!ok) ++mismatches;
    ran = ran || !not_run;
    std::string line = fmt::format("  {:<54} expected {:<4} got {}", r.path, short_name(want),
                                   not_run ? std::string(not_run_short) : coloured_verdict(r.v, style));
    if (r.v == verdict::accepted && r.score > 0) line += fmt::format("  {:.1f} {}", r.score, r.speed_unit);
    line += !ok            ? "  MISMATCH"
            : not_run      ? "  (not run)"
            : needs_timing ? "  not checked (--no-timing: caught when timed)"
                           : "  ok";
    std::fprintf(stdout, "%s\n", line.c_str());
    if (!ok && !not_run && !r.message.empty()) std::fprintf(stdout, "      %s\n", r.message.substr(0, 600).c_str());
    if (!ok && not_run) std::fputs("      it compiled: its folder says it must not\n", stdout);
    if (!sanitizer_note.empty()) std::fprintf(stdout, "%s\n", sanitizer_note.c_str());
    // Checking the compile alone, the reason of each compile error is what the author wants to see.
    if (f.compile_only && ok && r.v == verdict::compile_error) std::fputs(first_lines(r.message).c_str(), stdout);
    if (ok && !g_interrupted) mismatches += check_expected_hints(r);
    std::fflush(stdout);
  };
  auto on_baseline = [&](const run_outcome& o) {
    std::fputs(render_heading(o.spec.name, *o.device, f.no_timing ? "off" : "cold L2").c_str(), stdout);
    if (!o.baseline_error.empty()) {
      std::fprintf(stdout, "baseline: %s\n", o.baseline_error.c_str());
      ++mismatches;
    }
  };
  const run_outcome outcome = grade_solutions(request, on_result, on_baseline);
  if (g_interrupted) {
    std::fputs(render_not_graded(outcome.not_graded).c_str(), stdout);
    return interrupted;
  }
  if (f.compile_only) {
    // What the problem itself ships must build before any example's verdict means anything.
    for (const std::string& error : outcome.package_errors) {
      std::fprintf(stdout, "  problem %s's own files  MISMATCH\n%s", f.problem.c_str(), first_lines(error).c_str());
      ++mismatches;
    }
    std::fprintf(stdout, "verify %s, compile only: %zu example solutions, %d mismatch(es)\n", f.problem.c_str(),
                 outcome.results.size(), mismatches);
    return mismatches ? some_not_accepted : all_accepted;
  }
  if (!outcome.device) {
    std::fputs(render_no_device_note(outcome.results, outcome.no_device_reason).c_str(), stderr);
    return mismatches ? some_not_accepted : no_gpu;
  }
  std::fprintf(stdout, "verify %s: %zu example solutions, %d mismatch(es)\n", f.problem.c_str(), outcome.results.size(),
               mismatches);
  return mismatches ? some_not_accepted : all_accepted;
}
} // namespace

void add_verify(CLI::App& app, context& ctx) {
  auto [sub, flags] = add_problem_command<verify_flags>(
      app, ctx, "verify", "check that each example solution gets its folder's verdict", verify);
  sub->add_flag("--no-timing", flags->no_timing, "check verdicts only");
  sub->add_flag("--compile-only", flags->compile_only,
                "compile every example and run none (no GPU needed): compile_error examples must fail to "
                "compile, the others must compile");
  sub->add_option("--budget", flags->budget, "timing budget per case [s] (default 1)");
  sub->add_flag("--strict", flags->strict,
                "robustness cases (beyond_limits in cases.yaml) decide the examples' verdicts like every other case");
}

} // namespace judge::cli
