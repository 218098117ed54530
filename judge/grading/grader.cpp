#include "judge/grading/grader.hpp"

#include "judge/grading/case_data.hpp"
#include "judge/grading/case_size.hpp"
#include "judge/grading/cases_after_failure.hpp"
#include "common/seconds_into.hpp"
#include "judge/problem/call_limit.hpp"
#include "judge/problem/case_tolerance.hpp"
#include "judge/problem/check_seed.hpp"
#include "judge/grading/compare.hpp"
#include "judge/grading/device_fit.hpp"
#include "judge/grading/feedback.hpp"
#include "judge/grading/hints.hpp"
#include "judge/grading/output_files.hpp"
#include "judge/grading/plausibility.hpp"
#include "judge/grading/reference_build.hpp"
#include "judge/grading/reference_disk.hpp"
#include "judge/grading/reference_library.hpp"
#include "common/stats.hpp"
#include "judge/grading/timing_figures.hpp"
#include "judge/grading/verdict.hpp"
#include "common/wire_json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <future>
#include <stdexcept>
#include <thread>
#include <unistd.h>

namespace judge {

using judge_phases::seconds_into;

grader::grader(problem_spec spec, std::vector<test_case> cases, const judge_secret& secret, device_info device,
               grade_options options)
    : m_spec(std::move(spec)), m_cases(std::move(cases)), m_secret(secret), m_device(std::move(device)),
      m_options(std::move(options)),
      m_scratch_root(scratch_folder::create_temporary(fmt::format("gpu-judge-{}-", ::getpid()))) {
  if (m_options.cpu_threads == 0) m_options.cpu_threads = std::max(1u, std::thread::hardware_concurrency());
  // Robustness cases last: whatever they do (crash the runner, hang, answer wrong) comes after every case
  // that decides, and is recorded as their own lines only.
  if (!m_options.strict)
    std::stable_partition(m_cases.begin(), m_cases.end(), [](const test_case& c) { return !c.robustness(); });
  m_deciding = static_cast<std::size_t>(std::count_if(
      m_cases.begin(), m_cases.end(), [&](const test_case& c) { return m_options.strict || !c.robustness(); }));
}

// The scratch folders remove themselves, beneath their own descriptors, once their runners have exited.
grader::~grader() { settle_exits(); }

void grader::let_exit(std::unique_ptr<scratch_runner> runner) {
  if (!runner) return;
  // Kept even when it has ended already: its session still answers for what the runner printed.
  std::unique_ptr<child_process> process = runner->session->finish_without_exit();
  m_exiting.push_back({std::move(process), std::move(runner)});
}

double grader::settle_exits() {
  const auto began = std::chrono::steady_clock::now();
  // An exiting runner has nothing left to say; one that does not end within this bound is killed.
  for (exiting_runner& e : m_exiting)
    if (e.process) e.process->wait(std::chrono::steady_clock::now() + std::chrono::seconds(10));
  m_exiting.clear();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
}

double grader::call_seconds() const {
  return m_options.case_seconds > 0 ? m_options.case_seconds : m_spec.limits.case_seconds;
}
double grader::call_seconds(std::size_t i) const {
  return m_options.case_seconds > 0 ? m_options.case_seconds : call_limit_seconds(m_spec, m_cases[i]);
}
double grader::budget_seconds() const {
  return m_options.budget_seconds > 0 ? m_options.budget_seconds : m_spec.limits.timing_budget_seconds;
}

double grader::speed(const test_case& c, double ms) const { return speed_of(m_spec, c, ms); }

scratch_folder grader::new_scratch(const std::string& tag) {
  return m_scratch_root.make_subfolder(fmt::format("{}-{}", ++m_runs, tag));
}

runner_options grader::runner_options_for(const build_result& runner, const scratch_folder& scratch, runner_role role) {
  runner_options o;
  o.runner = runner.runner;
  o.role = role;
  // The replaying runner gets the solution's device code and never its shared object.
  if (role == runner_role::replaying)
    o.device_code = runner.device_code;
  else
    o.solution = runner.solution;
  o.scratch = scratch.path();
  if (role != runner_role::trusted) o.banned_libraries = m_spec.banned_libraries;
  o.timing = m_options.timing_method;
  o.output_cap = m_spec.limits.output_bytes;
  o.sandbox = m_options.sandbox;
  o.hidden_paths = m_options.hidden_paths;
  o.read_only_paths = m_options.runner_library_dirs;
  return o;
}

const reference_cache::outputs& grader::cpu_reference(std::size_t case_index, int check, double& seconds) {
  return m_references.get(case_index, check, [&] {
    const seconds_into into{seconds};
    const test_case& c = m_cases[case_index];
    const std::uint64_t seed = check_seed(m_secret, m_spec.name, c, check);
    // Kept between runs where the grading has a cache folder and the reference is built (the library's
    // name is its content hash); a reference that does not build throws below, as before.
    std::string key;
    const std::filesystem::path& folder = m_options.reference_cache_dir;
    if (!folder.empty())
      if (const reference_build built = build_cpu_reference(m_spec, default_toolchain());
          built.status == reference_build_status::ok) {
        key = reference_disk_key(m_spec, c, seed, built.library);
        const std::map<std::string, std::int64_t> counts = buffer_counts(m_spec, c);
        std::map<std::string, std::int64_t> output_counts;
        for (const parameter* p : m_spec.buffers())
          if (p->is_result()) output_counts[p->name] = counts.at(p->name);
        if (auto kept = load_reference_outputs(folder, key, output_counts)) return std::move(*kept);
      }
    const auto start = std::chrono::steady_clock::now();
    reference_cache::outputs outputs =
        cpu_reference_outputs(m_spec, c, regenerate_inputs(m_spec, c, seed), m_options.cpu_threads);
    if (!key.empty())
      store_reference_outputs(folder, key, outputs,
                              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    return outputs;
  });
}

std::vector<std::uint64_t> grader::check_seeds(std::size_t case_index) const {
  std::vector<std::uint64_t> seeds;
  for (int k = 0; k < m_options.checks; ++k) seeds.push_back(check_seed(m_secret, m_spec.name, m_cases[case_index], k));
  return seeds;
}

judge_wire::case_request grader::checks_request(std::size_t i, bool explains_only) const {
  std::vector<std::uint64_t> seeds = check_seeds(i);
  // A robustness case decides nothing (unless grading is strict): one checked call says whether the
  // solution runs right past the limits. The second call, with other inputs and poison, is there to catch
  // work kept from call to call, which the deciding cases catch; past the limits it doubled the largest
  // transfers and comparisons of a solution's grading (softmax's robustness cases hold 95% of its outputs).
  // So does a case run after the verdict is decided, for the hints and the report only.
  if ((explains_only || !decides(i)) && seeds.size() > 1) seeds.resize(1);
  return make_case_request(m_spec, m_cases[i], static_cast<int>(i), seeds, std::nullopt);
}

namespace {

/// Where the outputs of each of a request's checks lie in an output window, one after another from its
/// start (window_offsets), and the bytes they take in all.
struct output_layout {
  std::vector<std::vector<std::uint64_t>> offsets; ///< per check, per output
  std::uint64_t bytes = 0;
};

output_layout lay_out_outputs(const judge_wire::case_request& request) {
  std::vector<std::uint64_t> sizes;
  for (const judge_wire::buffer_spec& b : request.buffers)
    if (b.is_result()) sizes.push_back(static_cast<std::uint64_t>(b.count) * sizeof(float));
  output_layout layout;
  for (std::size_t k = 0; k < request.checks.size(); ++k)
    layout.offsets.push_back(window_offsets(sizes, layout.bytes, &layout.bytes));
  return layout;
}

} // namespace

const output_window* grader::window_for_checks() {
  if (m_window_tried) return m_window.get();
  m_window_tried = true;
  if (!m_options.output_window) return nullptr;
  std::uint64_t bytes = 0; // the largest case's that fits a window at all (place_outputs)
  for (std::size_t i = 0; i < m_cases.size(); ++i) {
    std::uint64_t needed = 0;
    try {
      needed = lay_out_outputs(checks_request(i)).bytes;
    } catch (const std::exception&) {
      continue; // a case whose request cannot be made fails on its own, when it is graded
    }
    if (needed <= max_window_bytes) bytes = std::max(bytes, needed);
  }
  if (bytes == 0) return nullptr;
  std::string why;
  m_window = output_window::create(static_cast<std::size_t>(bytes), &why);
  if (!m_window)
    std::fprintf(stderr, "judge: checked calls write their outputs to files: no output window of %llu bytes (%s)\n",
                 static_cast<unsigned long long>(bytes), why.c_str());
  return m_window.get();
}

void grader::place_outputs(judge_wire::case_request& request) const {
  if (!m_window) return;
  output_layout layout = lay_out_outputs(request);
  if (layout.bytes > m_window->bytes()) return; // a case too large for the window keeps its files
  for (std::size_t k = 0; k < request.checks.size(); ++k)
    request.checks[k].output_offsets = std::move(layout.offsets[k]);
}

std::vector<call_facts> grader::run_and_check(runner_session& session, const scratch_folder& scratch,
                                              const judge_wire::case_request& request, std::size_t i) {
  // The judge's side of a check (its CPU reference, reading and comparing its outputs) is CPU work the
  // GPU need not wait for. The case's CPU references are made, or read back from disk, on a thread of their
  // own from the moment the runner is asked (a robustness case's one call would otherwise be followed by
  // its reference); each check's outputs are then checked on a copy of its facts beside the runner's next
  // call, one at a time, in order. Its phases are what the judge waited for, not what overlapped the runner.
  // Nothing else uses the reference cache until the references are made: every check waits for them.
  std::atomic<std::size_t> wanted{request.checks.size()}; // the references still wanted: the calls before a failure
  double overlapped_warming_s = 0;
  const std::shared_future<void> references = std::async(std::launch::async, [&] {
    for (std::size_t k = 0; k < wanted.load(); ++k) cpu_reference(i, static_cast<int>(k), overlapped_warming_s);
  }).share();
  std::future<call_facts> checking;
  std::size_t checking_index = 0;
  std::vector<std::pair<std::size_t, call_facts>> checked; // (check, its facts with what its outputs hold)
  double overlapped_reference_s = 0, overlapped_compare_s = 0;
  const auto wait_for_checking = [&] {
    if (!checking.valid()) return;
    const seconds_into into{m_output_check_s};
    checked.emplace_back(checking_index, checking.get()); // a reference that cannot be built throws here
  };
  const auto answered_ok = [](const call_facts& facts) {
    return facts.answer && facts.answer->status == judge_wire::call_status::ok;
  };
  const auto arrived = [&](std::size_t k, const call_facts& facts) {
    if (!answered_ok(facts)) wanted = std::min(wanted.load(), k); // no reference from this call on is read
    if (k + 1 >= request.checks.size()) return; // the last: nothing of the runner's left to overlap it
    wait_for_checking();
    checking_index = k;
    checking = std::async(std::launch::async, [&, k, mine = facts]() mutable {
      if (answered_ok(mine)) references.get(); // a reference that cannot be built throws here
      check_outputs(scratch, request, i, static_cast<int>(k), mine, overlapped_reference_s, overlapped_compare_s);
      return mine;
    });
  };
  std::vector<call_facts> calls;
  try {
    calls = session.run_checks(request, call_seconds(i), arrived);
  } catch (...) {
    wanted = 0;
    references.wait(); // they use this frame's variables
    if (checking.valid()) checking.wait();
    throw;
  }
  wanted = std::min(wanted.load(), calls.size());
  {
    const seconds_into into{m_reference_s};
    references.wait();
  }
  wait_for_checking();
  std::size_t next = 0; // the first check not checked beside the runner
  for (auto& [k, facts] : checked) {
    if (k < calls.size()) calls[k] = std::move(facts);
    next = k + 1;
  }
  for (std::size_t k = next; k < calls.size(); ++k) {
    if (answered_ok(calls[k])) references.get();
    check_outputs(scratch, request, i, static_cast<int>(k), calls[k], m_reference_s, m_output_check_s);
  }
  return calls;
}

void grader::check_outputs(const scratch_folder& scratch, const judge_wire::case_request& request,
                           std::size_t case_index, int check, call_facts& facts, double& reference_s,
                           double& compare_s) {
  const std::vector<std::string>& files = request.checks.at(static_cast<std::size_t>(check)).output_files;
  // Whatever is decided, the check's files go: a long run must not fill the scratch disk.
  struct remover {
    const scratch_folder& scratch;
    const std::vector<std::string>& files;
    ~remover() {
      for (const std::string& f : files) scratch.remove_file(f);
    }
  } const remove_files{scratch, files};
  if (!facts.answer || facts.answer->status != judge_wire::call_status::ok) return;
  const test_case& c = m_cases[case_index];
  const auto counts = buffer_counts(m_spec, c);
  const auto& reference = cpu_reference(case_index, check, reference_s);
  // The reference's own time is the cpu reference phase; from here on the judge reads and compares.
  const seconds_into into{compare_s};
  if (m_spec.baseline.is_reference && m_baseline.disagreeing_cases.count(case_index)) facts.reference_disagrees = true;
  const auto baseline = m_baseline.outputs.find({case_index, check});
  const std::vector<std::uint64_t>& offsets = request.checks.at(static_cast<std::size_t>(check)).output_offsets;
  std::size_t output = 0;
  for (const parameter* p : m_spec.buffers()) {
    if (!p->is_result()) continue;
    const std::size_t k = output++;
    const auto count = static_cast<std::size_t>(counts.at(p->name));
    // In the output window, read where it lies; else from its file, into the last read's memory.
    std::optional<output_values> got;
    output_read from_file;
    struct hand_back {
      output_read& read;
      std::vector<float>& buffer;
      ~hand_back() {
        if (read.values) buffer = std::move(*read.values);
      }
    } const keep{from_file, m_output_buffer};
    if (!offsets.empty()) {
      const float* at = m_window ? m_window->floats_at(offsets.at(k), count) : nullptr;
      if (!reported_ready(*facts.answer, files.at(k)))
        facts.output_missing = fmt::format("the runner did not say that output {} is ready", files.at(k));
      else if (at == nullptr)
        throw std::logic_error(fmt::format("output {} was placed outside the output window", files.at(k)));
      else
        got.emplace(at, count);
    } else {
      from_file = take_output(scratch, *facts.answer, files.at(k), counts.at(p->name), std::move(m_output_buffer));
      if (from_file.values)
        got.emplace(*from_file.values);
      else
        facts.output_missing = from_file.problem;
    }
    if (!got) return;
    const auto shape = buffer_shape(*p, c);
    const tolerance tol = case_tolerance(m_spec, c);
    if (auto wrong = compare_output(p->name, *got, reference.at(p->name), shape, tol, p->type, m_spec.leetgpu)) {
      facts.wrong = wrong;
      return;
    }
    if (baseline != m_baseline.outputs.end()) {
      if (auto wrong = compare_output(p->name, *got, baseline->second.at(p->name), shape, tol, p->type)) {
        wrong->against = m_spec.baseline.label + " reference";
        facts.wrong = wrong;
        return;
      }
    }
  }
}

/// Leaves the cases of `to_time` from `from` on untimed: their recordings go from `scratch`, and each
/// says `why` in its feedback.
static void leave_untimed(const std::vector<case_to_time>& to_time, std::size_t from, const scratch_folder& scratch,
                          solution_result& result, const std::string& why) {
  for (std::size_t k = from; k < to_time.size(); ++k) {
    scratch.remove_file(*to_time[k].request.checks.back().record_file);
    case_result& untimed = result.cases.at(to_time[k].result_index);
    untimed.feedback = join_feedback(untimed.feedback, why);
  }
}

/// solution_result::sandbox for a runner that has finished.
static sandbox_status sandbox_state(const runner_session& session, bool asked) {
  if (session.sandboxed()) return {sandbox_mode::on, "", session.layers()};
  if (!asked) return {sandbox_mode::off, ""};
  if (session.sandbox_failure().empty()) return {};
  return {sandbox_mode::unavailable, session.sandbox_failure()};
}

timing_facts grader::time_case(runner_session& session, std::size_t i, std::optional<std::string> replay_file) {
  judge_wire::timing_spec timing;
  timing.budget_s = budget_seconds();
  timing.cold_l2 = m_options.cold_l2;
  using clock = std::chrono::steady_clock;
  if (m_last_timing_end)
    timing.last_timing_end_s = std::chrono::duration<double>(m_last_timing_end->time_since_epoch()).count();
  const test_case& c = m_cases[i];
  judge_wire::case_request request = make_case_request(m_spec, c, static_cast<int>(i), {}, timing);
  request.replay_file = std::move(replay_file);
  timing_facts facts = session.run_timing(request, budget_seconds() + 4 * call_seconds() + 30);
  if (facts.answer) m_last_timing_end = clock::now();
  return facts;
}

bool grader::times_a_case_from(std::size_t i) const {
  // Only cases that decide are timed: a robustness case's time would say nothing within the limits.
  const auto deciding_end = m_cases.begin() + static_cast<std::ptrdiff_t>(m_deciding);
  return m_options.timing && i < m_deciding &&
         std::any_of(m_cases.begin() + static_cast<std::ptrdiff_t>(i), deciding_end,
                     [](const test_case& c) { return c.timed; });
}

std::unique_ptr<scratch_runner> grader::start_runner(const build_result& build, runner_role role) {
  auto started = std::make_unique<scratch_runner>(new_scratch(role == runner_role::replaying ? "replay" : "solution"));
  runner_options options = runner_options_for(build, started->scratch, role);
  options.load_on_request = role == runner_role::recording;
  if (role == runner_role::recording) options.outputs = window_for_checks();
  started->session = std::make_unique<runner_session>(std::move(options));
  started->session->start_early();
  return started;
}

runners_ahead grader::take_ahead(const build_result& build, bool& failed) {
  runners_ahead ahead = std::move(m_ahead);
  m_ahead = {};
  failed = false;
  if (ahead.runner == build.runner && ahead.solution == build.solution) {
    failed = !wait_for_runners_ahead(ahead);
    if (!failed) return ahead;
  }
  // Started for a build that is not the one graded now: the held recorder never loaded its solution.
  for (auto* started : {&ahead.recorder, &ahead.replayer})
    if (*started) (*started)->session->finish();
  return {};
}

bool grader::wait_for_runners_ahead(runners_ahead& ahead) {
  const seconds_into into{m_ahead_wait_s};
  bool started_all = true;
  for (auto* started : {&ahead.recorder, &ahead.replayer})
    if (*started && !(*started)->session->wait_until_started()) started_all = false;
  return started_all;
}

void grader::start_ahead(const next_build_fn& next) {
  if (!next || m_ahead.recorder) return;
  const build_result* coming = next();
  if (!coming || coming->status != build_status::ok) return;
  m_ahead.runner = coming->runner;
  m_ahead.solution = coming->solution;
  m_ahead.recorder = start_runner(*coming, runner_role::recording);
  if (times_a_case_from(0)) m_ahead.replayer = start_runner(*coming, runner_role::replaying);
}

decision grader::time_by_replay(std::unique_ptr<scratch_runner>& replayer, const build_result& build,
                                const scratch_folder& scratch, const judge_wire::case_request& request,
                                const std::vector<call_facts>& calls, std::size_t i, case_result& cr,
                                std::optional<timing_facts>& timing) {
  const judge_wire::check_answer& recorded = calls.back().answer.value();
  const auto untimed = [&cr](const std::string& why) {
    cr.feedback = join_feedback(cr.feedback, "not timed: " + why);
    return decision{verdict::accepted, ""};
  };
  if (recorded.not_replayable) return untimed(*recorded.not_replayable);
  const std::string& file = request.checks.back().record_file.value();
  if (!replayer) replayer = start_runner(build, runner_role::replaying);
  // The judge moves the recording unread: only the replaying runner, which runs no learner code, parses
  // it, and checks every field before any CUDA call (harness/replay/recording_check.cpp).
  const std::string replay_file = "replay." + file;
  std::string problem = "the runner that ran your code wrote no recording of the call";
  if (recorded.recorded)
    problem = pass_file(scratch, file, replayer->scratch, replay_file, judge_wire::recording_limits::max_file_bytes);
  if (!problem.empty())
    return {verdict::run_time_error,
            fmt::format("checked call {}: the recording of the call cannot be read ({}); the process that ran your "
                        "code wrote it",
                        calls.size(), problem)};
  timing = time_case(*replayer->session, i, replay_file);
  const timing_facts& t = *timing;
  if (t.answer) { // the runner's own split of the case's timing, for the phases
    m_inputs_s += t.answer->inputs_s;
    m_gpu_reference_s += t.answer->reference_s;
  }
  if (t.answer && t.answer->status == judge_wire::call_status::invalid_recording)
    return {verdict::run_time_error,
            fmt::format("checked call {}: {}; the process that ran your code wrote the recording, and the replay "
                        "refused it before running anything",
                        calls.size(), t.answer->error.value_or("the recording is invalid"))};
  if (t.answer && t.answer->status == judge_wire::call_status::not_replayable) return untimed(t.answer->error.value_or(""));
  if (t.answer && t.answer->status == judge_wire::call_status::foreign_kernel) {
    const std::string why = t.answer->error.value_or("solve() launched a kernel that is not in your code");
    if (!m_spec.banned_libraries.empty())
      return {verdict::run_time_error, why + " (problem.yaml: banned_libraries)"};
    return untimed(why);
  }
  const bool reads_back = t.answer && t.answer->replay_reads_back;
  const std::string uncarried = t.answer ? t.answer->replay_uncarried : "";
  decision d = decide_case(calls, timing);
  // State the recording could not carry explains a replay that goes wrong after right checked calls
  // better than anything the replay saw: said, with what was left behind.
  if (d.v != verdict::accepted && !uncarried.empty()) {
    timing.reset();
    return untimed(fmt::format("solve() keeps state from call to call that the replay does not restore: {}; the "
                               "replay restores at most {} MiB of device variables and earlier allocations, so its "
                               "timed calls began without it",
                               uncarried, judge_wire::recording_limits::max_state_bytes >> 20));
  }
  // A replay that never wrote an output the checked call did write replayed none of the work that wrote
  // it: code the recording does not follow did it (a library with a CUDA runtime of its own, cuBLAS).
  // (The wire carries a NaN as "nan", without its payload: any NaN stands for the NaN poison here, which a
  // kernel that computes the right answer in the checked calls does not produce from like inputs.)
  const bool unwritten = d.v == verdict::wrong_answer && t.answer && t.answer->first_mismatch &&
                         (std::isnan(t.answer->first_mismatch->got) || judge_wire::is_poison(t.answer->first_mismatch->got));
  if (unwritten && !reads_back) {
    const std::string why = fmt::format(
        "the checked calls' output {} came from work the judge cannot see: the replay of the device work solve() "
        "issued through the CUDA runtime never writes it (a library with a CUDA runtime of its own, such as "
        "cuBLAS, does not show in the recording)",
        t.answer->first_mismatch->buffer);
    timing.reset();
    if (!m_spec.banned_libraries.empty())
      return {verdict::run_time_error, why + "; this problem bans libraries (problem.yaml: banned_libraries)"};
    return untimed(why);
  }
  // Host code that reads the device back and decides from it is no wrong answer: it is work a replay
  // cannot reproduce. Said, instead of blaming the solution for the replay's inputs.
  if (d.v == verdict::wrong_answer && reads_back && t.answer && t.answer->mismatched_samples > 0) {
    timing.reset();
    return untimed("solve() copies device data to the host (cudaMemcpy device to host) and then issues more work, "
                   "which may depend on what it read; the judge times only device work it can replay: keep the "
                   "whole computation on the GPU to be timed");
  }
  return d;
}

void grader::add_figures(case_result& cr, const test_case& c) const {
  cr.speed = speed(c, cr.timing->median_ms);
  if (auto b = m_baseline.timings.find(c.name); b != m_baseline.timings.end()) {
    cr.baseline_timing = b->second;
    cr.baseline_speed = speed(c, b->second.median_ms);
    // Times taken by different methods measure different things (events include launch gaps):
    // a share of one in the other would mislead, so there is none, and the feedback says why.
    const bool comparable = b->second.method == cr.timing->method;
    cr.pct_of_baseline = comparable && cr.baseline_speed > 0 ? 100.0 * cr.speed / cr.baseline_speed : 0;
  }
  const double peak = m_spec.unit == speed_unit::gflops ? m_device.fp32_peak_gflops : bandwidth_peak(m_device);
  cr.pct_of_peak = peak > 0 ? 100.0 * cr.speed / peak : 0;
  cr.implausible =
      implausible(cr.timing->median_ms,
                  {cr.flops, cr.bytes, cr.timing->cold_l2, m_spec.tensor_cores_allowed, m_uses_tensor_cores}, m_device);
  cr.feedback = join_feedback(timing_feedback(*cr.timing),
                              cr.baseline_timing ? method_feedback(*cr.timing, *cr.baseline_timing) : "");
}

std::vector<sanitizer_run> grader::sanitize_case(const build_result& build, std::size_t i, const sanitizer_plan& plan,
                                                 const std::string& who, const progress_fn& progress) {
  std::vector<sanitizer_run> runs;
  const std::vector<std::uint64_t> seeds = check_seeds(i);
  if (seeds.empty()) return runs;
  // The one checked call to explain, with its seed: the same inputs as the call that failed.
  const std::uint64_t seed = seeds.at(std::min(plan.check, seeds.size() - 1));
  const std::vector<std::string> requests = {
      judge_wire::encode(make_case_request(m_spec, m_cases[i], static_cast<int>(i), {seed}, std::nullopt)),
      judge_wire::encode(judge_wire::end_request{})};
  for (const sanitizer_tool tool : plan.tools) {
    if (stop_explaining()) break;
    if (progress) progress(who, i, m_cases.size(), m_cases[i].name + " under compute-sanitizer " + tool_name(tool));
    const scratch_folder scratch = new_scratch(std::string("sanitizer-") + tool_name(tool));
    runner_options o = runner_options_for(build, scratch, runner_role::recording);
    // CUPTI and the sanitizer both want the driver's callbacks; nothing is timed here anyway.
    o.timing = judge_wire::timing_method::events;
    runs.push_back(run_sanitizer(o, m_options.sanitizer, tool, requests, sanitizer_limit()));
  }
  return runs;
}

double grader::sanitizer_limit() const {
  return m_options.sanitizer.limit_seconds > 0 ? m_options.sanitizer.limit_seconds : sanitizer_seconds(call_seconds());
}

bool grader::stop_explaining() const {
  return g_interrupted || (m_options.sanitizer.give_way && m_options.sanitizer.give_way->load());
}

double grader::explain(const build_result& build, solution_result& result, const progress_fn& progress) {
  sanitizer_explanation& e = result.sanitizer;
  // Stopped before it began (even its build may have been cut short): it stays pending.
  if (e.state != explanation_state::pending || stop_explaining()) return 0;
  const auto began = std::chrono::steady_clock::now();
  const auto failed = [&](std::string why) {
    e.state = explanation_state::failed;
    e.detail = std::move(why);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  };
  if (build.status != build_status::ok) return failed("its build failed: " + build.message);
  const auto in_spec =
      std::find_if(m_cases.begin(), m_cases.end(), [&](const test_case& c) { return c.name == e.case_name; });
  const auto in_result = std::find_if(result.cases.begin(), result.cases.end(),
                                      [&](const case_result& c) { return c.name == e.case_name; });
  // The cases changed since it was graded (a server's explanation runs later, from the problem as it is now).
  if (in_spec == m_cases.end() || in_result == result.cases.end())
    return failed("the problem has no case " + e.case_name + " now");
  const std::size_t i = static_cast<std::size_t>(in_spec - m_cases.begin());
  in_result->sanitizer =
      sanitize_case(build, i, {e.tools, static_cast<std::size_t>(std::max(0, e.check))}, result.path, progress);
  if (stop_explaining()) {
    // Cut short: nothing is known yet, and it stays to be run again.
    in_result->sanitizer.clear();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  }
  if (in_result->sanitizer.empty()) return failed("the case has no checked call to rerun");
  e.state = state_after(in_result->sanitizer);
  e.detail = e.state == explanation_state::failed ? in_result->sanitizer.front().detail : "";
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
}

void grader::add_runner_split(const std::vector<call_facts>& calls, double checks_s) {
  double inputs_s = 0, outputs_s = 0;
  for (const call_facts& facts : calls) {
    if (!facts.answer) continue;
    inputs_s += facts.answer->inputs_s;
    outputs_s += facts.answer->outputs_s;
  }
  // The runner's figures lie inside the judge's wait for its answers; a forged one cannot take more.
  inputs_s = std::min(inputs_s, std::max(0.0, checks_s));
  m_check_inputs_s += inputs_s;
  m_output_copy_s += std::min(outputs_s, std::max(0.0, checks_s - inputs_s));
}

case_result grader::grade_case(runner_session& session, const scratch_folder& scratch, const build_result& build,
                               std::size_t i, const std::string& who, const progress_fn& progress,
                               sanitizer_explanation* explanation, bool time_it, std::vector<case_to_time>& to_time) {
  const test_case& c = m_cases[i];
  case_result cr;
  cr.name = c.name;
  cr.hidden = c.visibility == visibility::hidden;
  cr.shape = shape_text(m_spec, c);
  cr.sizes = ordered_sizes(m_spec, c);
  cr.flops = static_cast<double>(m_spec.flops.evaluate(c.sizes));
  cr.bytes = static_cast<double>(m_spec.bytes.evaluate(c.sizes));
  if (const std::string why = device_memory_shortfall(m_spec, c, m_device); !why.empty()) {
    cr.v = verdict::internal_error;
    cr.message = why;
    return cr;
  }
  if (progress) progress(who, i, m_cases.size(), c.name);
  // Not timed, in the deciding cases, means after a failure: the case only explains the verdict.
  judge_wire::case_request request = checks_request(i, !time_it && decides(i));
  place_outputs(request);
  const bool timed = time_it && m_options.timing && c.timed && decides(i) && !request.checks.empty();
  // The last checked call of a timed case is recorded, for the replaying runner to time.
  if (timed) request.checks.back().record_file = fmt::format("{}.record.json", i);
  const auto checks_began = std::chrono::steady_clock::now();
  const double judge_side_before_s = m_output_check_s + m_reference_s;
  std::vector<call_facts> calls = run_and_check(session, scratch, request, i);
  // The runner's part: the judge's checks of the outputs are phases of their own.
  const double checks_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - checks_began).count() -
                          (m_output_check_s + m_reference_s - judge_side_before_s);
  const decision d = decide_case(calls, std::nullopt);
  const bool to_be_timed = d.v == verdict::accepted && timed && calls.size() == request.checks.size();
  if (timed && !to_be_timed) scratch.remove_file(*request.checks.back().record_file);
  // A call ended by its time limit: the checked calls of this case were mostly a wait on that limit.
  if (d.v == verdict::time_limit_exceeded) m_limit_wait_s += checks_s;
  else add_runner_split(calls, checks_s);
  cr.v = d.v;
  cr.message = d.message;
  cr.wrong = d.wrong;
  cr.beyond_limits = c.beyond_limits;
  if (to_be_timed) to_time.push_back({i, 0, std::move(request), std::move(calls)});
  // After the verdict, which it never changes.
  const seconds_into into{m_sanitizer_s};
  if (m_options.sanitizer.every_case) {
    const sanitizer_plan every_tool = {{sanitizer_tool::memcheck, sanitizer_tool::racecheck, sanitizer_tool::initcheck},
                                       0};
    cr.sanitizer = sanitize_case(build, i, every_tool, who, progress);
  } else if (explanation && d.v != verdict::accepted) {
    plan_explanation(build, i, cr, calls, std::nullopt, *explanation, who, progress);
  }
  return cr;
}

void grader::plan_explanation(const build_result& build, std::size_t i, case_result& cr,
                              const std::vector<call_facts>& calls, const std::optional<timing_facts>& timing,
                              sanitizer_explanation& explanation, const std::string& who,
                              const progress_fn& progress) {
  if (!m_options.sanitizer.on_failure) return;
  // Planned, not run: its runs take a tool's start and a slowed case each, which the verdict (and, on a
  // server, the next submission's grading) need not wait for. explain() runs it.
  const sanitizer_plan plan = plan_sanitizer(calls, timing);
  if (plan.tools.empty()) return;
  explanation.state = explanation_state::pending;
  explanation.case_name = m_cases[i].name;
  explanation.check = static_cast<int>(plan.check);
  explanation.tools = plan.tools;
  explanation.seconds_per_tool = sanitizer_limit();
  // Without the tool there is nothing to wait for: its absence is said now, at no cost.
  if (m_options.sanitizer.executable.empty()) {
    cr.sanitizer = sanitize_case(build, i, plan, who, progress);
    explanation.state = explanation_state::failed;
    explanation.detail = m_options.sanitizer.missing;
  }
}

std::optional<std::size_t> grader::time_cases(std::vector<case_to_time>& to_time,
                                              std::unique_ptr<scratch_runner>& replayer,
                                              const scratch_folder& scratch, const build_result& build,
                                              solution_result& result, std::vector<case_outcome>& decisions,
                                              const progress_fn& progress) {
  for (std::size_t k = 0; k < to_time.size() && !g_interrupted; ++k) {
    case_to_time& t = to_time[k];
    const test_case& c = m_cases[t.case_index];
    case_result& cr = result.cases.at(t.result_index);
    if (progress) progress(result.path, t.case_index, m_cases.size(), c.name + " (timing)");
    // No runner starts beside a timing: the next solution's, started during the checked calls, are up first.
    wait_for_runners_ahead(m_ahead);
    std::optional<timing_facts> timing;
    decision d;
    {
      const seconds_into into{m_timing_s};
      d = time_by_replay(replayer, build, scratch, t.request, t.calls, t.case_index, cr, timing);
    }
    if (d.v == verdict::accepted) {
      if (timing && timing->answer) {
        cr.timing = summarise(*timing->answer);
        if (cr.timing) add_figures(cr, c);
      }
      continue;
    }
    // The replay saw what the checked calls did not: the case fails here, and decides the verdict.
    cr.v = d.v;
    cr.message = d.message;
    cr.wrong = d.wrong;
    decisions.at(t.result_index).d = d;
    if (result.sanitizer.state == explanation_state::none) {
      const seconds_into into{m_sanitizer_s};
      plan_explanation(build, t.case_index, cr, t.calls, timing, result.sanitizer, result.path, progress);
    }
    leave_untimed(to_time, k + 1, scratch, result, fmt::format("not timed: case {} failed", cr.name));
    return t.result_index;
  }
  return std::nullopt;
}

double grader::score(const solution_result& result) const {
  if (result.v != verdict::accepted) return 0;
  std::vector<double> hidden_speeds;
  for (std::size_t i = 0; i < result.cases.size(); ++i) {
    const case_result& cr = result.cases[i];
    // A case that should have been timed but has no samples leaves the score undefined.
    if (m_options.timing && m_cases[i].timed && !cr.timing) return 0;
    if (cr.timing && cr.hidden) hidden_speeds.push_back(cr.speed);
  }
  return judge_stats::geometric_mean(hidden_speeds);
}

run_phases grader::grade(const build_result& runner, solution_result& result, const progress_fn& progress,
                         const next_build_fn& next) {
  result.device = m_device;
  result.speed_unit = unit_name(m_spec.unit);
  if (runner.status != build_status::ok) {
    result.v = runner.status == build_status::compile_error ? verdict::compile_error : verdict::internal_error;
    result.message = runner.message;
    return {};
  }
  using clock = std::chrono::steady_clock;
  const clock::time_point began = clock::now();
  m_timing_s = m_sanitizer_s = m_reference_s = m_inputs_s = m_gpu_reference_s = m_limit_wait_s = m_ahead_wait_s = 0;
  m_output_check_s = m_check_inputs_s = m_output_copy_s = 0;
  m_uses_tensor_cores = runner.uses_tensor_cores;
  bool ahead_failed = false;
  runners_ahead ahead = take_ahead(runner, ahead_failed);
  // Runners started ahead that failed to start are started again, once the solution before's runners have
  // gone: what failed them beside that solution (its memory, its context's teardown) is then not there.
  double exits_s = ahead_failed ? settle_exits() : 0;
  // The recording runner is held before it loads the solution until its first case (start() sends
  // "load"); started ahead, its CUDA start overlapped the solution before.
  std::unique_ptr<scratch_runner> recorder =
      ahead.recorder ? std::move(ahead.recorder) : start_runner(runner, runner_role::recording);
  runner_session& session = *recorder->session;
  const scratch_folder& scratch = recorder->scratch;
  // The replaying runner starts with the recording one when any case will be timed (unless it was
  // started ahead, while the solution before was in its untimed cases): its CUDA start (a context,
  // CUPTI, the solution's modules) then overlaps the checked calls.
  std::unique_ptr<scratch_runner> replayer;
  if (times_a_case_from(0))
    replayer = ahead.replayer ? std::move(ahead.replayer) : start_runner(runner, runner_role::replaying);
  // Nothing is timed in this grading at all: the next solution's runners may start now.
  if (!times_a_case_from(0) && !g_interrupted) start_ahead(next);
  // The runners of the solution before exit while this one's recorder loads the solution and sets up
  // CUDA; they are gone before its first checked call, so that nothing of theirs (memory, a context's
  // teardown) meets this solution's calls or its timing. A start that fails here is what its first case
  // reports.
  // Whatever the solutions before left in the output window (their outputs, a stray thread's last
  // writes) is gone before this solution's code is loaded: it finds no other solution's outputs there to
  // copy, or to claim as its own unwritten. Between its own cases it finds only its own.
  if (m_window) m_window->poison(0, m_window->bytes());
  session.say_hello();
  exits_s += settle_exits();
  // The next solution's runners start now, once this one's recorder is up and the runners before have
  // gone: their CUDA start overlaps this solution's untimed checked calls, and a timed case waits until
  // they have started (wait_for_runners_ahead), so no timing runs beside a start. Started after a timed
  // case instead, their start would fall between two timed cases with nothing to overlap it.
  if (!g_interrupted) start_ahead(next);
  std::vector<case_outcome> decisions;
  // Only the first failure is explained: later cases mostly fail the same way, and each tool's run costs
  // up to sanitizer_seconds().
  result.sanitizer = {};
  // Once a case has failed, the verdict is decided: what runs after it only explains it, untimed
  // (cases_after_failure.hpp), and the cases left out are listed as not run.
  std::optional<cases_after_failure> after_failure;
  bool aligned_right = false;
  std::vector<std::size_t> ran; // the index in m_cases of each of result.cases
  bool timing_ended = !times_a_case_from(0);
  const auto end_timing = [&] {
    if (timing_ended) return;
    timing_ended = true;
    // The replaying runner's teardown overlaps the rest; the next runners start, if they have not yet.
    if (replayer) replayer->session->request_end();
    if (!g_interrupted) start_ahead(next);
  };
  // The timed cases whose checked calls were right, timed once every deciding case has passed: the
  // timing of a solution that fails is never spent, and a wrong verdict comes without it.
  std::vector<case_to_time> to_time;
  bool timing_cut = false; // interrupted before every case to time was timed
  for (std::size_t i = 0; i < m_deciding && !g_interrupted; ++i) {
    // A next build that was still compiling at this solution's start gets its runners now: their start
    // overlaps checked calls, and every timing waits until they are up.
    start_ahead(next);
    if (after_failure && !after_failure->runs(ordered_sizes(m_spec, m_cases[i]))) {
      result.cases_not_run.push_back(m_cases[i].name);
      continue;
    }
    const bool explained = result.sanitizer.state != explanation_state::none;
    const std::size_t timed_before = to_time.size();
    result.cases.push_back(grade_case(session, scratch, runner, i, result.path, progress,
                                      explained ? nullptr : &result.sanitizer, !after_failure, to_time));
    if (to_time.size() > timed_before) to_time.back().result_index = result.cases.size() - 1;
    ran.push_back(i);
    const case_result& cr = result.cases.back();
    decisions.push_back({{cr.v, cr.message}, false});
    if (after_failure) {
      after_failure->ran(cr);
    } else if (cr.v != verdict::accepted) {
      after_failure.emplace(cr, aligned_right);
      end_timing();
    } else if (aligned(cr)) {
      aligned_right = true;
    }
  }
  if (after_failure) {
    // Right so far, but the solution failed.
    leave_untimed(to_time, 0, scratch, result,
                  fmt::format("not timed: a solution is timed once every case passes, and case {} failed",
                              after_failure->failed_case()));
  } else if (!g_interrupted) {
    if (const auto failed = time_cases(to_time, replayer, scratch, runner, result, decisions, progress))
      after_failure.emplace(result.cases.at(*failed), aligned_right);
    else
      timing_cut = g_interrupted;
  } else {
    timing_cut = !to_time.empty();
  }
  end_timing();
  // The robustness cases, after every case that decides: each in a runner call of its own (a runner that
  // died on one is started again for the next), never timed, never explained, recorded apart. After a
  // failure none runs: the largest cases of all would explain nothing the verdict has not said.
  for (std::size_t i = m_deciding; i < m_cases.size() && !g_interrupted; ++i) {
    if (after_failure) {
      result.cases_not_run.push_back(m_cases[i].name);
      continue;
    }
    result.robustness.push_back(
        grade_case(session, scratch, runner, i, result.path, progress, nullptr, false, to_time));
    decisions.push_back({{result.robustness.back().v, result.robustness.back().message}, true});
  }
  if (after_failure && !result.cases_not_run.empty()) result.cases_not_run_reason = after_failure->reason();
  const clock::time_point cases_end = clock::now();
  const double hello_s = session.hello_wait_seconds() + (replayer ? replayer->session->hello_wait_seconds() : 0) +
                         m_ahead_wait_s;
  // Their exits overlap the next solution's start (above) or end the run (settle_exits()). `session`
  // stays readable: the exiting runner keeps it.
  let_exit(std::move(recorder));
  let_exit(std::move(replayer));
  const double cases_s = std::chrono::duration<double>(cases_end - began).count() - exits_s;
  // The runner's split of the timed cases comes out of "timing", which keeps the solution's own calls and
  // the replay's restoring, flushing and timer work. The runner's figures lie inside the judge's wait for
  // its answers; clamped all the same, since a runner's word cannot make a phase negative.
  const double inputs_s = std::min(m_inputs_s, m_timing_s);
  const double gpu_reference_s = std::min(m_gpu_reference_s, m_timing_s - inputs_s);
  // Likewise the runner's split of the checked calls: making their inputs, writing their outputs' files.
  const double checked_s = std::max(0.0, cases_s - hello_s - m_reference_s - m_timing_s - m_sanitizer_s -
                                             m_limit_wait_s - m_output_check_s);
  const double check_inputs_s = std::min(m_check_inputs_s, checked_s);
  const double output_copy_s = std::min(m_output_copy_s, checked_s - check_inputs_s);
  const run_phases phases = {{"runner start", hello_s},
                             {"cpu reference", m_reference_s},
                             {"checked calls", checked_s - check_inputs_s - output_copy_s},
                             {"output hand-over", output_copy_s},
                             {"output checks", m_output_check_s},
                             {"limit wait", m_limit_wait_s},
                             {"input generation", inputs_s + check_inputs_s},
                             {"gpu reference", gpu_reference_s},
                             {"timing", m_timing_s - inputs_s - gpu_reference_s},
                             {"sanitizer", m_sanitizer_s},
                             {"runner end", exits_s + std::chrono::duration<double>(clock::now() - cases_end).count()}};
  result.learner_output = session.learner_output();
  // The record says how the process that ran learner code was confined; the replaying runner runs in the
  // same sandbox.
  result.sandbox = sandbox_state(session, m_options.sandbox);
  if (g_interrupted && (result.cases.size() < m_deciding || timing_cut) &&
      decide_solution(decisions).v == verdict::accepted) {
    result.v = verdict::internal_error;
    result.message = "interrupted before every case ran";
    return phases;
  }
  const decision overall = decide_solution(decisions);
  result.v = overall.v;
  for (const case_result& cr : result.cases)
    if (cr.v != verdict::accepted) {
      result.message = fmt::format("case {} ({}{}): {}", cr.name, cr.shape, cr.hidden ? ", hidden" : "", cr.message);
      break;
    }
  result.score = score(result);
  result.implausible = std::any_of(result.cases.begin(), result.cases.end(),
                                   [](const case_result& cr) { return cr.implausible.has_value(); });
  // The rules see how much output each case asks for (outputs per thread), which the result does not hold.
  std::vector<std::int64_t> output_elements;
  for (const std::size_t i : ran) {
    const auto counts = buffer_counts(m_spec, m_cases[i]);
    std::int64_t elements = 0;
    for (const parameter& p : m_spec.signature)
      if (p.is_result()) elements += counts.at(p.name);
    output_elements.push_back(elements);
  }
  result.hints = hints_for({result, std::move(output_elements), sm_limits_for(m_device.cc)});
  return phases;
}

} // namespace judge
