#include "judge/grading/grading_run.hpp"

#include "judge/base/file_input.hpp"
#include "judge/base/utc_time.hpp"
#include "judge/compile/build_queue.hpp"
#include "judge/compile/compile.hpp"
#include "judge/grading/reference_library.hpp"
#include "judge/problem/author.hpp"
#include "judge/problem/case_set_version.hpp"
#include "judge/problem/secret.hpp"
#include "judge/run/device_probe.hpp"
#include "judge/run/gpu_lock.hpp"

#include <algorithm>
#include <stdexcept>
#include <chrono>
#include <stdexcept>
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

run_outcome grade_solutions(const run_request& request, const result_sink& on_result, const baseline_sink& on_baseline,
                            const result_sink& on_verdict) {
  return grading_run(request, on_result, on_baseline, on_verdict).run();
}

grading_run::grading_run(const run_request& request, result_sink on_result, baseline_sink on_baseline,
                         result_sink on_verdict)
    : m_request(request), m_on_result(std::move(on_result)), m_on_baseline(std::move(on_baseline)),
      m_on_verdict(std::move(on_verdict)), m_clock(m_outcome.phases) {}

// The grader goes first, then the GPU's lock; the build queue last, waiting for the builds still going
// (each ends early once interrupted).
grading_run::~grading_run() = default;

const std::vector<named_step<grading_run>>& grading_run::steps() {
  static const std::vector<named_step<grading_run>> list = {
      {"load the problem", &grading_run::load_the_problem},
      {"probe the GPU", &grading_run::probe_the_gpu},
      {"hand out the builds", &grading_run::hand_out_the_builds},
      {"report the builds when nothing is run", &grading_run::report_builds_when_nothing_runs},
      {"take the GPU", &grading_run::take_the_gpu},
      {"measure the GPU's bandwidth", &grading_run::measure_the_bandwidth},
      {"set up the grader", &grading_run::set_up_the_grader},
      {"run the baseline", &grading_run::run_the_baseline},
      {"grade the solutions", &grading_run::grade_the_solutions},
  };
  return list;
}

const std::vector<named_step<grading_run>>& grading_run::explain_only_steps() {
  static const std::vector<named_step<grading_run>> list = {
      {"load the problem", &grading_run::load_the_problem},
      {"probe the GPU", &grading_run::probe_the_gpu},
      {"end without a GPU", &grading_run::end_without_a_gpu},
      {"hand out the builds", &grading_run::hand_out_the_builds},
      {"take the GPU", &grading_run::take_the_gpu},
      {"set up the grader", &grading_run::set_up_the_grader},
      {"explain the solutions", &grading_run::explain_the_solutions},
  };
  return list;
}

const std::vector<named_step<grading_run>>& grading_run::solution_steps() {
  static const std::vector<named_step<grading_run>> list = {
      {"wait for its build", &grading_run::wait_for_its_build},
      {"grade it", &grading_run::grade_it},
      {"hand on its verdict", &grading_run::hand_on_its_verdict},
      {"explain it", &grading_run::explain_it},
      {"hand on its result", &grading_run::hand_on_its_result},
  };
  return list;
}

const std::vector<named_step<grading_run>>& grading_run::explanation_steps() {
  static const std::vector<named_step<grading_run>> list = {
      {"wait for its build", &grading_run::wait_for_its_build},
      {"take its graded result", &grading_run::take_its_graded_result},
      {"explain it", &grading_run::explain_it},
      {"hand on its result", &grading_run::hand_on_its_result},
  };
  return list;
}

const std::vector<named_step<grading_run>>& grading_run::compiled_only_steps() {
  static const std::vector<named_step<grading_run>> list = {
      {"wait for its build", &grading_run::wait_for_its_build},
      {"take its build's word", &grading_run::take_its_build_word},
      {"hand on its result", &grading_run::hand_on_its_result},
  };
  return list;
}

run_outcome grading_run::run(const step_observer& on_step) {
  m_on_step = on_step;
  if (!m_request.to_explain.empty() && m_request.to_explain.size() != m_request.solutions.size())
    throw std::logic_error("an explain-only run needs one graded result per solution");
  run_with_interrupts(m_request.to_explain.empty() ? steps() : explain_only_steps());
  return std::move(m_outcome);
}

steps_outcome grading_run::run_with_interrupts(const std::vector<named_step<grading_run>>& steps) {
  return run_steps(
      *this, steps, [] { return g_interrupted.load(); }, [](grading_run& run) { run.not_graded_from_here(); },
      m_on_step);
}

void grading_run::not_graded_from_here() {
  // Each solution gets a result or a place among the not graded, in their order.
  for (std::size_t i = m_outcome.results.size() + m_outcome.not_graded.size(); i < m_request.solutions.size(); ++i)
    m_outcome.not_graded.push_back(m_request.solutions[i].display);
}

step_end grading_run::load_the_problem() {
  // The secret before any build or runner starts, so that it exists to be hidden from them; every caller
  // (run, verify, a server's worker) hides the same files.
  m_secret = load_or_create_secret(secret_path());
  m_hidden = hidden_from_learner_code(m_request.store);
  m_outcome.spec = load_problem(m_request.problems_root / m_request.problem);
  problem_spec& spec = m_outcome.spec;
  if (m_request.compile_seconds > 0) spec.limits.compile_seconds = m_request.compile_seconds;
  m_cases = load_cases(spec, m_request.testcases_root / m_request.problem / "cases.yaml");
  m_case_set = case_set_version(spec.spec_file, m_request.testcases_root / m_request.problem / "cases.yaml");
  if (!m_request.only_cases.empty()) {
    std::vector<test_case> chosen;
    for (const auto& name : m_request.only_cases) chosen.push_back(m_cases[index_of_case(spec, m_cases, name)]);
    m_cases = std::move(chosen);
  }
  // The problem's own CPU reference before anything else: one that is missing or does not compile is a
  // spec_error (a broken package, exit 2), found before any solution is compiled, with or without a GPU.
  // (A compiler stopped by Ctrl-C throws too: then the interrupt, not the package, ends the run.)
  load_cpu_reference(spec, default_toolchain());
  m_clock.lap("problem");
  return step_end::next;
}

step_end grading_run::probe_the_gpu() {
  // What GPU there is, for the compile flags and the lock; its bandwidth is measured once the GPU is ours.
  tell(m_request.progress, run_progress::step::probing);
  m_probe = m_request.devices ? m_request.devices->probe(false) : probe_device(false);
  m_outcome.device = m_probe.device;
  m_outcome.no_device_reason = m_probe.error;
  m_clock.lap("probe");
  return step_end::next;
}

step_end grading_run::hand_out_the_builds() {
  m_tools = toolchain_for(m_probe);
  m_tools.stop = &g_interrupted;
  const unsigned jobs =
      m_request.compile_jobs ? m_request.compile_jobs : std::max(1u, std::thread::hardware_concurrency());
  // Every build is handed to the compile threads now, the baseline's first: the GPU starts on the first
  // solution as soon as it is built, while the CPU cores go on with the rest.
  const problem_spec& spec = m_outcome.spec;
  std::vector<build_job> build_jobs;
  // An explanation runs the solution alone: nothing is compared with the baseline or timed.
  m_has_baseline = !spec.baseline.source.empty() && m_request.to_explain.empty();
  if (m_has_baseline) build_jobs.push_back({spec.baseline.source, runner_kind::baseline});
  m_first_solution = build_jobs.size();
  for (const auto& s : m_request.solutions) build_jobs.push_back({s.source, runner_kind::solution});
  // Checking a package without a GPU, the starter learners copy must build too, as a solution: inspected
  // like one, so a starter that would be refused is found by its author, not its first learner. Last, so
  // that the examples' lines come as their builds end.
  m_starter_build = std::nullopt;
  if (m_request.compile_only && m_request.check_package && std::filesystem::is_regular_file(spec.dir / "starter.cu")) {
    m_starter_build = build_jobs.size();
    build_jobs.push_back({spec.dir / "starter.cu", runner_kind::solution});
  }
  m_builds.emplace(spec, build_jobs, m_tools, jobs);
  return step_end::next;
}

step_end grading_run::end_without_a_gpu() {
  if (m_probe.device) return step_end::next;
  // Nothing to build for: the sanitizer needs the GPU the failure happened on.
  explanations_fail("no CUDA device" + (m_probe.error.empty() ? std::string() : ": " + m_probe.error));
  return step_end::last;
}

step_end grading_run::report_builds_when_nothing_runs() {
  if (m_probe.device && !m_request.compile_only) return step_end::next;
  // Each solution is told as soon as its build ends (builds run in parallel; told in order): a verify
  // of matmul's 57 examples on two busy cores shows its first line in seconds, not after six minutes.
  for (m_current = 0; m_current < m_request.solutions.size(); ++m_current)
    if (run_with_interrupts(compiled_only_steps()).end == step_end::interrupted) break;
  // After the examples, whose lines come as their builds end.
  if (m_request.compile_only && m_request.check_package && !g_interrupted) check_the_package_builds();
  m_clock.lap("compile wait");
  return step_end::last;
}

void grading_run::check_the_package_builds() {
  const problem_spec& spec = m_outcome.spec;
  auto failed = [](const build_result& b) { return b.status != build_status::ok; };
  // The GPU reference and the call shim make the problem's runner, which every build links: its
  // failure is the package's, said once with the compiler's words, not once per example.
  const std::string runner_error = problem_runner_error(spec, m_tools);
  if (!runner_error.empty()) m_outcome.package_errors.push_back(runner_error);
  const bool runner_ok = runner_error.empty();
  if (m_has_baseline) {
    if (const build_result& b = m_builds->result(0, {}); failed(b) && runner_ok)
      m_outcome.package_errors.push_back("the baseline (" + spec.baseline.source.filename().string() +
                                         ") does not build:\n" + b.message);
  }
  if (m_starter_build) {
    if (const build_result& b = m_builds->result(*m_starter_build, {}); failed(b) && runner_ok)
      m_outcome.package_errors.push_back("the starter (starter.cu) does not build:\n" + b.message);
  }
}

step_end grading_run::take_the_gpu() {
  // Only one judge times on a GPU at a time: its runs (and the bandwidth probe) start once it holds the
  // GPU's lock, compiling going on meanwhile. The lock is released when the run ends.
  m_lock.emplace(
      gpu_lock_dir(), m_probe.device->uuid, "judge " + m_outcome.spec.name,
      [&](const gpu_lock_holder& h) {
        tell(m_request.progress, run_progress::step::waiting_for_gpu, 0, 0,
             h.pid ? "pid " + std::to_string(h.pid) + " (" + h.command + ", since " + h.since + ")" : "another judge");
      },
      &g_interrupted);
  if (!m_lock->held()) return step_end::interrupted; // interrupted while waiting
  m_clock.lap("gpu wait");
  return step_end::next;
}

step_end grading_run::measure_the_bandwidth() {
  tell(m_request.progress, run_progress::step::probing);
  if (probe_result measured = m_request.devices ? m_request.devices->probe(true) : probe_device(true);
      measured.device) {
    m_probe = measured;
    m_outcome.device = m_probe.device;
  }
  m_clock.lap("bandwidth probe");
  return step_end::next;
}

step_end grading_run::set_up_the_grader() {
  grade_options grading = m_request.grading;
  grading.hidden_paths = m_hidden;
  grading.runner_library_dirs = {m_tools.cupti_library.parent_path(), m_tools.cuda_library_dir};
  grading.baseline_cache_dir = m_tools.cache_dir / m_outcome.spec.name;
  grading.reference_cache_dir = m_tools.cache_dir / m_outcome.spec.name / "references";
  if (!m_request.to_explain.empty()) grading.sanitizer.on_failure = true;
  if ((grading.sanitizer.on_failure || grading.sanitizer.every_case) && grading.sanitizer.executable.empty()) {
    const sanitizer_options found = find_compute_sanitizer(m_tools.nvcc);
    grading.sanitizer.executable = found.executable;
    grading.sanitizer.missing = found.missing;
  }
  if (m_request.rebaseline) grading.baseline_max_age = std::chrono::seconds(0);
  m_grader.emplace(m_outcome.spec, m_cases, m_secret, *m_probe.device, grading);
  return step_end::next;
}

step_end grading_run::run_the_baseline() {
  if (m_has_baseline) {
    const build_result& baseline = m_builds->result(
        0, [&](std::size_t, std::size_t) { tell(m_request.progress, run_progress::step::compiling_baseline); });
    m_clock.lap("compile wait");
    grader& g = *m_grader;
    m_outcome.baseline_error = g.run_baseline(baseline, running());
    m_outcome.baseline_timed_at = g.baseline_timed_at();
    m_outcome.baseline_from_cache = g.baseline_from_cache();
    for (const test_case& c : g.cases())
      if (auto it = g.baseline_timings().find(c.name); it != g.baseline_timings().end()) {
        m_outcome.baseline_timings.emplace_back(c.name, it->second);
        m_outcome.baseline_speeds.push_back(g.speed(c, it->second.median_ms));
      }
    m_clock.lap("baseline");
  }
  tell(m_request.progress, run_progress::step::none);
  if (m_on_baseline) m_on_baseline(m_outcome);
  return step_end::next;
}

step_end grading_run::grade_the_solutions() {
  for (m_current = 0; m_current < m_request.solutions.size(); ++m_current)
    if (run_with_interrupts(solution_steps()).end == step_end::interrupted) break;
  // The last solution's runners exit before the run lets the GPU go (each earlier one's while the next
  // solution started).
  if (m_grader) m_clock.lap("results", {{"runner end", m_grader->settle_exits()}});
  return step_end::next;
}

step_end grading_run::explain_the_solutions() {
  for (m_current = 0; m_current < m_request.solutions.size(); ++m_current)
    if (run_with_interrupts(explanation_steps()).end == step_end::interrupted) break;
  return step_end::next;
}

void grading_run::explanations_fail(const std::string& why) {
  for (m_current = 0; m_current < m_request.solutions.size() && !g_interrupted; ++m_current) {
    m_graded = m_request.to_explain[m_current];
    if (m_graded->sanitizer.state == explanation_state::pending) {
      m_graded->sanitizer.state = explanation_state::failed;
      m_graded->sanitizer.detail = why;
    }
    hand_on_its_result();
  }
}

step_end grading_run::wait_for_its_build() {
  m_graded.reset();
  m_build = &build_of(m_current);
  tell(m_request.progress, run_progress::step::none);
  m_clock.lap("compile wait");
  return step_end::next;
}

step_end grading_run::grade_it() {
  m_graded = result_of_build(m_current, *m_build);
  // The next solution, if it is built by the time this one's timing ends, gets its runners started then
  // (grader.hpp).
  const std::size_t next = m_current + 1;
  const run_phases parts = m_grader->grade(*m_build, *m_graded, running(), [this, next]() -> const build_result* {
    return next < m_request.solutions.size() ? m_builds->if_built(m_first_solution + next) : nullptr;
  });
  m_graded->phases = parts;
  tell(m_request.progress, run_progress::step::none);
  m_clock.lap("results", parts);
  return step_end::next;
}

step_end grading_run::take_its_build_word() {
  const build_result& build = *m_build;
  m_graded = result_of_build(m_current, build);
  solution_result& r = *m_graded;
  if (build.status == build_status::ok) {
    r.v = verdict::internal_error;
    r.compiled_only = true;
    r.message =
        m_request.compile_only ? "compiled; not run: compile only" : "compiled; not run: no CUDA device is present";
  } else {
    r.v = build.status == build_status::compile_error ? verdict::compile_error : verdict::internal_error;
    r.message = build.message;
  }
  return step_end::next;
}

step_end grading_run::take_its_graded_result() {
  m_graded = m_request.to_explain[m_current];
  // Graded on other cases than the problem's now: the failing call's inputs cannot be made again.
  sanitizer_explanation& e = m_graded->sanitizer;
  if (e.state == explanation_state::pending && !m_graded->case_set.empty() && m_graded->case_set != m_case_set) {
    e.state = explanation_state::failed;
    e.detail =
        "the problem's cases changed since it was graded (case set " + m_graded->case_set + ", now " + m_case_set + ")";
  }
  return step_end::next;
}

step_end grading_run::hand_on_its_verdict() {
  // Told before its explanation runs, so that a learner reads the verdict while the sanitizer works.
  if (m_on_verdict && explains_now() && m_graded->sanitizer.state == explanation_state::pending)
    m_on_verdict(*m_graded);
  return step_end::next;
}

step_end grading_run::explain_it() {
  if (!explains_now() || m_graded->sanitizer.state != explanation_state::pending) return step_end::next;
  const double seconds = m_grader->explain(*m_build, *m_graded, running());
  tell(m_request.progress, run_progress::step::none);
  m_clock.lap("results", {{"sanitizer", seconds}});
  return step_end::next;
}

step_end grading_run::hand_on_its_result() {
  m_outcome.results.push_back(std::move(*m_graded));
  m_graded.reset();
  if (m_on_result) m_on_result(m_outcome.results.back());
  return step_end::next;
}

solution_result grading_run::result_of_build(std::size_t i, const build_result& build) const {
  const problem_spec& spec = m_outcome.spec;
  solution_result r;
  r.problem = spec.name;
  r.path = m_request.solutions[i].display;
  r.author = author_from(m_request.solutions[i].source, first_source_text(m_request.solutions[i].source));
  r.content_hash = build.content_hash;
  r.graded_at = utc_now();
  r.case_set = m_case_set;
  r.compile_output = build.status == build_status::ok ? "" : build.message;
  r.kernels = build.kernels;
  r.speed_unit = unit_name(spec.unit);
  return r;
}

progress_fn grading_run::running() const {
  return [this](const std::string& who, std::size_t i, std::size_t n, const std::string& name) {
    tell(m_request.progress, run_progress::step::running, i, n, who, name);
  };
}

const build_result& grading_run::build_of(std::size_t i) {
  // While the GPU waits for a build, the display shows the compiles (the baseline's own line for it).
  return m_builds->result(m_first_solution + i, [&](std::size_t done, std::size_t total) {
    tell(m_request.progress, run_progress::step::compiling, done, total);
  });
}

} // namespace judge
