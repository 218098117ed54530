#include "grading_run.hpp"

#include "author.hpp"
#include "build_queue.hpp"
#include "compile.hpp"
#include "device_probe.hpp"
#include "file_input.hpp"
#include "gpu_lock.hpp"
#include "reference_library.hpp"
#include "secret.hpp"
#include "utc_time.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

namespace judge {

namespace {
/// The text of a solution's first .cu file, where its author line is; "" when it cannot be read.
std::string first_source_text(const std::filesystem::path& source) {
  const std::vector<std::filesystem::path> units = solution_units(source);
  std::error_code unreadable;
  return units.empty() ? "" : read_file(units.front(), unreadable).value_or("");
}

void tell(const run_progress_fn& progress, run_progress::step now, std::size_t done = 0, std::size_t total = 0,
          const std::string& who = "", const std::string& case_name = "") {
  if (progress) progress(run_progress{now, done, total, who, case_name});
}
} // namespace

/// Adds the seconds since the last call (or since construction) to the outcome's phases, merging a
/// phase that comes back (the compile wait, between solutions) into its first entry.
class phase_clock {
public:
  explicit phase_clock(std::vector<std::pair<std::string, double>>& phases) : m_phases(phases) {}
  void lap(const std::string& phase) {
    const auto now = std::chrono::steady_clock::now();
    const double seconds = std::chrono::duration<double>(now - m_start).count();
    m_start = now;
    for (auto& [name, total] : m_phases)
      if (name == phase) {
        total += seconds;
        return;
      }
    m_phases.emplace_back(phase, seconds);
  }

private:
  std::vector<std::pair<std::string, double>>& m_phases;
  std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();
};

run_outcome grade_solutions(const run_request& request, const result_sink& on_result,
                            const std::function<void(const run_outcome&)>& on_baseline) {
  run_outcome outcome;
  phase_clock clock(outcome.phases);
  // An interrupt before any solution ran (Ctrl-C): every solution is listed as not graded, none blamed.
  auto nothing_graded = [&] {
    for (const auto& s : request.solutions) outcome.not_graded.push_back(s.display);
    return outcome;
  };
  outcome.spec = load_problem(request.problems_root / request.problem);
  problem_spec& spec = outcome.spec;
  if (request.compile_seconds > 0) spec.limits.compile_seconds = request.compile_seconds;
  auto cases = load_cases(spec, request.testcases_root / request.problem / "cases.yaml");
  if (!request.only_cases.empty()) {
    std::vector<test_case> chosen;
    for (const auto& name : request.only_cases) chosen.push_back(cases[index_of_case(spec, cases, name)]);
    cases = std::move(chosen);
  }
  // The problem's own CPU reference before anything else: one that is missing or does not compile is a
  // spec_error (a broken package, exit 2), found before any solution is compiled, with or without a GPU.
  try {
    load_cpu_reference(spec, default_toolchain());
  } catch (const std::exception&) {
    if (g_interrupted) { // the compiler was stopped by Ctrl-C, not by a broken reference
      return nothing_graded();
    }
    throw;
  }
  clock.lap("problem");

  // What GPU there is, for the compile flags and the lock; its bandwidth is measured once the GPU is ours.
  tell(request.progress, run_progress::step::probing);
  probe_result probe = request.devices ? request.devices->probe(false) : probe_device(false);
  outcome.device = probe.device;
  outcome.no_device_reason = probe.error;
  clock.lap("probe");

  toolchain tools = toolchain_for(probe);
  tools.stop = &g_interrupted;
  const unsigned jobs = request.compile_jobs ? request.compile_jobs : std::max(1u, std::thread::hardware_concurrency());

  // Every build is handed to the compile threads now, the baseline's first: the GPU starts on the first
  // solution as soon as it is built, while the CPU cores go on with the rest.
  std::vector<build_job> build_jobs;
  const bool has_baseline = !spec.baseline.source.empty();
  if (has_baseline) build_jobs.push_back({spec.baseline.source, runner_kind::baseline});
  const std::size_t first_solution = build_jobs.size();
  for (const auto& s : request.solutions) build_jobs.push_back({s.source, runner_kind::solution});
  build_queue builds(spec, build_jobs, tools, jobs);
  const std::size_t solution_count = request.solutions.size();
  // While the GPU waits for a build, the display shows the compiles (the baseline's own line for it).
  auto build_of = [&](std::size_t i) -> const build_result& {
    return builds.result(first_solution + i, [&](std::size_t done, std::size_t total) {
      tell(request.progress, run_progress::step::compiling, done, total);
    });
  };

  auto make_result = [&](std::size_t i, const build_result& build) {
    solution_result r;
    r.problem = spec.name;
    r.path = request.solutions[i].display;
    r.author = author_from(request.solutions[i].source, first_source_text(request.solutions[i].source));
    r.content_hash = build.content_hash;
    r.graded_at = utc_now();
    r.compile_output = build.status == build_status::ok ? "" : build.message;
    r.kernels = build.kernels;
    r.speed_unit = unit_name(spec.unit);
    return r;
  };

  if (!probe.device || request.compile_only) {
    // Each solution is told as soon as its build ends (builds run in parallel; told in order): a verify
    // of matmul's 57 examples on two busy cores shows its first line in seconds, not after six minutes.
    for (std::size_t i = 0; i < solution_count; ++i) {
      const build_result& build = build_of(i);
      tell(request.progress, run_progress::step::none);
      if (g_interrupted) { // a build cut short says nothing about its solution, nor about those after it
        for (std::size_t j = i; j < solution_count; ++j) outcome.not_graded.push_back(request.solutions[j].display);
        break;
      }
      solution_result r = make_result(i, build);
      if (build.status == build_status::ok) {
        r.v = verdict::internal_error;
        r.compiled_only = true;
        r.message =
            request.compile_only ? "compiled; not run: compile only" : "compiled; not run: no CUDA device is present";
      } else {
        r.v = build.status == build_status::compile_error ? verdict::compile_error : verdict::internal_error;
        r.message = build.message;
      }
      outcome.results.push_back(r);
      if (on_result) on_result(r);
    }
    clock.lap("compile wait");
    return outcome;
  }

  // Only one judge times on a GPU at a time: its runs (and the bandwidth probe) start once it holds the
  // GPU's lock, compiling going on meanwhile. The lock is released when the run ends.
  const gpu_lock lock(
      gpu_lock_dir(), probe.device->uuid, "judge " + spec.name,
      [&](const gpu_lock_holder& h) {
        tell(request.progress, run_progress::step::waiting_for_gpu, 0, 0,
             h.pid ? "pid " + std::to_string(h.pid) + " (" + h.command + ", since " + h.since + ")" : "another judge");
      },
      &g_interrupted);
  if (!lock.held()) { // interrupted while waiting
    return nothing_graded();
  }
  clock.lap("gpu wait");
  tell(request.progress, run_progress::step::probing);
  if (probe_result measured = request.devices ? request.devices->probe(true) : probe_device(true); measured.device) {
    probe = measured;
    outcome.device = probe.device;
  }
  clock.lap("bandwidth probe");
  grade_options grading = request.grading;
  grading.runner_library_dirs = {tools.cupti_library.parent_path(), tools.cuda_library_dir};
  grading.baseline_cache_dir = tools.cache_dir / spec.name;
  if ((grading.sanitizer.on_failure || grading.sanitizer.every_case) && grading.sanitizer.executable.empty()) {
    const sanitizer_options found = find_compute_sanitizer(tools.nvcc);
    grading.sanitizer.executable = found.executable;
    grading.sanitizer.missing = found.missing;
  }
  if (request.rebaseline) grading.baseline_max_age = std::chrono::seconds(0);
  grader g(spec, cases, load_or_create_secret(secret_path()), *probe.device, grading);
  auto progress = [&](const std::string& who, std::size_t i, std::size_t n, const std::string& name) {
    tell(request.progress, run_progress::step::running, i, n, who, name);
  };
  if (has_baseline) {
    const build_result& baseline = builds.result(
        0, [&](std::size_t, std::size_t) { tell(request.progress, run_progress::step::compiling_baseline); });
    clock.lap("compile wait");
    outcome.baseline_error = g.run_baseline(baseline, progress);
    outcome.baseline_timed_at = g.baseline_timed_at();
    outcome.baseline_from_cache = g.baseline_from_cache();
    for (const test_case& c : g.cases())
      if (auto it = g.baseline_timings().find(c.name); it != g.baseline_timings().end()) {
        outcome.baseline_timings.emplace_back(c.name, it->second);
        outcome.baseline_speeds.push_back(g.speed(c, it->second.median_ms));
      }
    clock.lap("baseline");
  }
  tell(request.progress, run_progress::step::none);
  if (on_baseline) on_baseline(outcome);
  for (std::size_t i = 0; i < solution_count; ++i) {
    if (g_interrupted) {
      outcome.not_graded.push_back(request.solutions[i].display);
      continue;
    }
    const build_result& build = build_of(i);
    tell(request.progress, run_progress::step::none);
    clock.lap("compile wait");
    if (g_interrupted) { // its build was cut short: that says nothing about the solution
      outcome.not_graded.push_back(request.solutions[i].display);
      continue;
    }
    solution_result r = make_result(i, build);
    // The next solution, if it is built by the time this one's timing ends, gets its replaying runner
    // started then (grade.hpp).
    g.grade(build, r, progress, [&builds, first_solution, i, solution_count]() -> const build_result* {
      return i + 1 < solution_count ? builds.if_built(first_solution + i + 1) : nullptr;
    });
    tell(request.progress, run_progress::step::none);
    clock.lap("solutions");
    // Its runner may have been killed mid-case by the interrupt: what it got says nothing about it.
    if (g_interrupted) {
      outcome.not_graded.push_back(r.path);
      continue;
    }
    outcome.results.push_back(r);
    if (on_result) on_result(outcome.results.back());
  }
  return outcome;
}

} // namespace judge
