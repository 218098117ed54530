#include "grade.hpp"

#include "case_data.hpp"
#include "compare.hpp"
#include "secret.hpp"
#include "stats.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <random>
#include <thread>
#include <unistd.h>

namespace judge {

std::atomic<bool> g_interrupted{false};

namespace {
// References are kept for every solution of a run; past this many bytes they are recomputed instead.
constexpr std::size_t reference_cache_limit = std::size_t{4} << 30;

std::uint64_t fresh_seed() {
  std::random_device rd;
  return (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
}

std::filesystem::path make_scratch_root() {
  auto base = std::filesystem::temp_directory_path() / fmt::format("gpu-judge-{}-{:x}", ::getpid(), fresh_seed() & 0xffffff);
  std::filesystem::create_directories(base);
  std::filesystem::permissions(base, std::filesystem::perms::owner_all, std::filesystem::perm_options::replace);
  return base;
}
} // namespace

std::optional<std::vector<float>> read_floats(const std::filesystem::path& file, std::int64_t count) {
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(file, ec);
  if (ec || bytes != static_cast<std::uintmax_t>(count) * sizeof(float)) return std::nullopt;
  std::vector<float> values(static_cast<std::size_t>(count));
  std::ifstream in(file, std::ios::binary);
  if (!in.read(reinterpret_cast<char*>(values.data()), static_cast<std::streamsize>(bytes))) return std::nullopt;
  return values;
}

grader::grader(problem_spec spec, std::vector<test_case> cases, std::uint64_t secret, device_info device, grade_options options)
    : m_spec(std::move(spec)), m_cases(std::move(cases)), m_timing_seed(fresh_seed()), m_device(std::move(device)),
      m_options(std::move(options)), m_scratch_root(make_scratch_root()) {
  for (const test_case& c : m_cases)
    m_case_seeds.push_back(effective_seed(c.seed, m_spec.name, c.name, c.visibility == visibility::hidden, secret));
  if (m_options.cpu_threads == 0) m_options.cpu_threads = std::max(1u, std::thread::hardware_concurrency());
}

grader::~grader() {
  std::error_code ec;
  std::filesystem::remove_all(m_scratch_root, ec);
}

double grader::call_seconds() const { return m_options.case_seconds > 0 ? m_options.case_seconds : m_spec.limits.case_seconds; }
double grader::budget_seconds() const {
  return m_options.budget_seconds > 0 ? m_options.budget_seconds : m_spec.limits.timing_budget_seconds;
}

double grader::speed(const test_case& c, double ms) const {
  if (!(ms > 0)) return 0;
  const double work = static_cast<double>(m_spec.unit == speed_unit::gflops ? m_spec.flops.evaluate(c.sizes) : m_spec.bytes.evaluate(c.sizes));
  return work / (ms * 1e-3) / 1e9;
}

runner_options grader::runner_options_for(const build_result& runner, bool baseline, const std::string& tag) {
  runner_options o;
  o.runner = runner.runner;
  o.scratch = m_scratch_root / fmt::format("{}-{}", ++m_runs, tag);
  std::filesystem::create_directories(o.scratch);
  if (!baseline) o.banned_libraries = m_spec.banned_libraries;
  o.output_cap = m_spec.limits.output_bytes;
  o.sandbox = m_options.sandbox;
  o.hidden_paths = m_options.hidden_paths;
  return o;
}

const std::map<std::string, std::vector<double>>& grader::cpu_reference(std::size_t case_index, int check) {
  const auto key = std::make_pair(case_index, check);
  if (auto it = m_references.find(key); it != m_references.end()) return it->second;
  const test_case& c = m_cases[case_index];
  auto inputs = regenerate_inputs(m_spec, c, m_case_seeds[case_index], check);
  auto outputs = cpu_reference_outputs(m_spec, c, inputs, m_options.cpu_threads);
  std::size_t bytes = 0;
  for (const auto& [name, values] : outputs) bytes += values.size() * sizeof(double);
  if (m_reference_bytes + bytes > reference_cache_limit) {
    m_references.clear();
    m_reference_bytes = 0;
  }
  m_reference_bytes += bytes;
  return m_references.emplace(key, std::move(outputs)).first->second;
}

call_facts grader::check_outputs(std::size_t case_index, int check, const check_answer& answer) {
  call_facts facts = answer.facts;
  if (!facts.reported || facts.runner_status != "ok") return facts;
  const test_case& c = m_cases[case_index];
  const auto counts = buffer_counts(m_spec, c);
  const auto& reference = cpu_reference(case_index, check);
  if (m_spec.baseline.is_reference && m_baseline_disagrees[case_index]) facts.reference_disagrees = true;
  for (const parameter* p : m_spec.buffers()) {
    if (p->role != param_role::output) continue;
    std::filesystem::path file;
    for (const auto& [name, path] : answer.output_files)
      if (name == p->name) file = path;
    auto got = file.empty() ? std::nullopt : read_floats(file, counts.at(p->name));
    if (!got) {
      std::error_code ec;
      const auto size = file.empty() ? 0 : std::filesystem::file_size(file, ec);
      facts.output_missing = true;
      facts.runner_error = file.empty() ? fmt::format("the runner named no file for output {}", p->name)
                           : ec ? fmt::format("output file {} cannot be read: {}", file.string(), ec.message())
                                : fmt::format("output file {} holds {} bytes, not {}", file.string(), size,
                                              counts.at(p->name) * 4);
    }
    std::error_code ec;
    if (!file.empty()) std::filesystem::remove(file, ec);
    if (!got) return facts;
    const auto shape = buffer_shape(*p, c);
    if (auto wrong = compare_output(p->name, *got, reference.at(p->name), shape, m_spec.tolerance)) {
      facts.wrong = wrong;
      return facts;
    }
    auto base = m_baseline_outputs.find({case_index, check});
    if (base != m_baseline_outputs.end()) {
      if (auto wrong = compare_output(p->name, *got, base->second.at(p->name), shape, m_spec.tolerance)) {
        wrong->against = m_spec.baseline.label + " reference";
        facts.wrong = wrong;
        return facts;
      }
    }
  }
  return facts;
}

std::optional<timing_summary> grader::summarise(const timing_answer& t) const {
  if (t.gpu_ms.empty()) return std::nullopt;
  std::vector<double> kept, host, clocks;
  for (std::size_t i = 0; i < t.gpu_ms.size(); ++i) {
    const bool throttled = i < t.throttled.size() && t.throttled[i];
    if (throttled) continue;
    kept.push_back(t.gpu_ms[i]);
    if (i < t.host_ms.size()) host.push_back(t.host_ms[i]);
    if (i < t.sm_clock_mhz.size()) clocks.push_back(t.sm_clock_mhz[i]);
  }
  timing_summary s;
  s.discarded = static_cast<int>(t.gpu_ms.size() - kept.size());
  if (kept.empty()) {
    // Every sample ran throttled: report them, flagged by the discarded count, rather than nothing.
    kept = t.gpu_ms;
    host = t.host_ms;
    clocks = t.sm_clock_mhz;
  }
  s.samples = static_cast<int>(kept.size());
  s.median_ms = judge_stats::median(kept);
  s.min_ms = *std::min_element(kept.begin(), kept.end());
  s.max_ms = *std::max_element(kept.begin(), kept.end());
  s.noise = judge_stats::relative_stddev(kept);
  s.host_median_ms = judge_stats::median(host);
  s.sm_clock_mhz = judge_stats::median(clocks);
  s.method = t.method;
  s.cold_l2 = t.cold_l2;
  s.stop_reason = t.stop_reason;
  s.warmup_calls = t.warmup_calls;
  return s;
}

// The runner holds each buffer several times (two alternating sets for timing, pristine copies of the
// inputs, reference outputs) plus the L2 flush buffer.
std::string device_memory_shortfall(const problem_spec& spec, const test_case& c, const device_info& device) {
  if (device.memory_bytes <= 0) return "";
  double bytes = 0;
  for (const auto& [name, count] : buffer_counts(spec, c)) bytes += 4.0 * static_cast<double>(count) * sizeof(float);
  bytes += 3.0 * static_cast<double>(device.l2_bytes) + (256 << 20);
  if (bytes <= static_cast<double>(device.memory_bytes)) return "";
  return fmt::format("case {} needs about {:.1f} GiB of device memory, more than the {:.1f} GiB of the {}; "
                     "reduce its sizes in cases.yaml", c.name, bytes / (1 << 30),
                     static_cast<double>(device.memory_bytes) / (1 << 30), device.name);
}

/// solution_result::sandbox for a runner that has finished.
static std::string sandbox_state(const runner_session& session, bool asked) {
  if (session.sandboxed()) return "on";
  if (!asked) return "off";
  return session.sandbox_failure().empty() ? "" : "unavailable: " + session.sandbox_failure();
}

timing_answer grader::time_case(runner_session& session, std::size_t i) {
  timing_request tr;
  // The same fresh seed for the baseline and every solution of this run: all are timed on equal data.
  tr.seed = judge_data::mix64(m_timing_seed + i);
  tr.budget_s = budget_seconds();
  tr.cold_l2 = m_options.cold_l2;
  const test_case& c = m_cases[i];
  return session.run_timing(case_request(m_spec, c, static_cast<int>(i), m_case_seeds[i], 0, tr),
                            budget_seconds() + 4 * call_seconds() + 30);
}

std::string grader::run_baseline(const build_result& baseline, const progress_fn& progress) {
  if (baseline.status != build_status::ok) return "the baseline did not build: " + baseline.message;
  runner_session session(runner_options_for(baseline, true, "baseline"));
  if (!session.start()) return "the baseline runner did not start: " + session.failure();
  for (std::size_t i = 0; i < m_cases.size() && !g_interrupted; ++i) {
    const test_case& c = m_cases[i];
    if (const std::string why = device_memory_shortfall(m_spec, c, m_device); !why.empty()) return why;
    if (progress) progress(m_spec.baseline.label, i, m_cases.size(), c.name);
    const auto request = case_request(m_spec, c, static_cast<int>(i), m_case_seeds[i], m_options.checks, std::nullopt);
    const auto answers = session.run_checks(request, m_options.checks, call_seconds() + 30);
    const auto counts = buffer_counts(m_spec, c);
    for (std::size_t k = 0; k < answers.size(); ++k) {
      const auto& a = answers[k];
      if (!a.facts.reported || a.facts.runner_status != "ok")
        return fmt::format("the baseline failed on case {}: {}", c.name,
                           a.facts.runner_error.empty() ? a.facts.death : a.facts.runner_error);
      if (!m_spec.baseline.is_reference) {
        for (const auto& [name, file] : a.output_files) std::filesystem::remove(file);
        continue;
      }
      std::map<std::string, std::vector<float>> outputs;
      for (const auto& [name, file] : a.output_files) {
        auto values = read_floats(file, counts.at(name));
        std::filesystem::remove(file);
        if (!values) return fmt::format("the baseline's output {} of case {} could not be read", name, c.name);
        outputs[name] = std::move(*values);
      }
      // The two references must agree before either may judge a learner.
      const auto& reference = cpu_reference(i, static_cast<int>(k));
      for (const auto& [name, values] : outputs) {
        const parameter* p = nullptr;
        for (const parameter* b : m_spec.buffers())
          if (b->name == name) p = b;
        if (p && compare_output(name, values, reference.at(name), buffer_shape(*p, c), m_spec.tolerance))
          m_baseline_disagrees[i] = true;
      }
      m_baseline_outputs[{i, static_cast<int>(k)}] = std::move(outputs);
    }
    if (m_options.timing && c.timed) {
      const auto t = time_case(session, i);
      if (auto s = summarise(t)) m_baseline_timing[c.name] = *s;
    }
  }
  session.finish();
  return "";
}

void grader::grade(const build_result& runner, solution_result& result, const progress_fn& progress) {
  result.device = m_device;
  result.speed_unit = m_spec.unit == speed_unit::gflops ? "GFLOPS" : "GB/s";
  if (runner.status != build_status::ok) {
    result.v = runner.status == build_status::compile_error ? verdict::compile_error : verdict::internal_error;
    result.message = runner.message;
    return;
  }
  runner_session session(runner_options_for(runner, false, "solution"));
  std::vector<decision> decisions;
  std::vector<double> hidden_speeds;
  bool all_timed_ok = true;
  for (std::size_t i = 0; i < m_cases.size(); ++i) {
    const test_case& c = m_cases[i];
    case_result cr;
    cr.name = c.name;
    cr.hidden = c.visibility == visibility::hidden;
    cr.shape = shape_text(m_spec, c);
    cr.sizes = ordered_sizes(m_spec, c);
    cr.flops = static_cast<double>(m_spec.flops.evaluate(c.sizes));
    cr.bytes = static_cast<double>(m_spec.bytes.evaluate(c.sizes));
    if (g_interrupted) break;
    if (const std::string why = device_memory_shortfall(m_spec, c, m_device); !why.empty()) {
      cr.v = verdict::internal_error;
      cr.message = why;
      decisions.push_back({cr.v, cr.message});
      result.cases.push_back(std::move(cr));
      continue;
    }
    if (progress) progress(result.path, i, m_cases.size(), c.name);
    const auto request = case_request(m_spec, c, static_cast<int>(i), m_case_seeds[i], m_options.checks, std::nullopt);
    const auto answers = session.run_checks(request, m_options.checks, call_seconds());
    std::vector<call_facts> calls;
    for (std::size_t k = 0; k < answers.size(); ++k) calls.push_back(check_outputs(i, static_cast<int>(k), answers[k]));
    decision d = decide_case(calls, std::nullopt);
    if (d.v == verdict::accepted && m_options.timing && c.timed) {
      const auto t = time_case(session, i);
      d = decide_case(calls, t.facts);
      if (d.v == verdict::accepted) {
        cr.timing = summarise(t);
        if (cr.timing) {
          cr.speed = speed(c, cr.timing->median_ms);
          if (auto b = m_baseline_timing.find(c.name); b != m_baseline_timing.end()) {
            cr.baseline_timing = b->second;
            cr.baseline_speed = speed(c, b->second.median_ms);
            cr.pct_of_baseline = cr.baseline_speed > 0 ? 100.0 * cr.speed / cr.baseline_speed : 0;
          }
          const double peak = m_spec.unit == speed_unit::gflops ? m_device.fp32_peak_gflops : bandwidth_peak(m_device);
          cr.pct_of_peak = peak > 0 ? 100.0 * cr.speed / peak : 0;
          // Host time far above GPU time means solve() spends its time outside kernels.
          if (cr.timing->host_median_ms > 2.0 * cr.timing->median_ms + 0.05)
            cr.feedback = fmt::format("solve() takes {:.3f} ms on the host but only {:.3f} ms on the GPU: cudaMalloc, "
                                      "copies or synchronisation inside solve() cost more than the kernel",
                                      cr.timing->host_median_ms, cr.timing->median_ms);
          if (cr.hidden) hidden_speeds.push_back(cr.speed);
        } else {
          all_timed_ok = false;
        }
      }
    }
    cr.v = d.v;
    cr.message = d.message;
    decisions.push_back(d);
    result.cases.push_back(std::move(cr));
    // A solution that hangs once will hang again: waiting out the limit on every case teaches nothing
    // and holds the GPU, so its remaining cases are not run.
    if (d.v == verdict::time_limit_exceeded) break;
  }
  session.finish();
  result.learner_output = session.learner_output();
  result.sandbox = [](const std::string& s) -> sandbox_status {
    return {s == "on"    ? sandbox_mode::on
            : s == "off" ? sandbox_mode::off
            : s.empty()  ? sandbox_mode::not_run
                         : sandbox_mode::unavailable,
            s.size() > 13 ? s.substr(13) : ""};
  }(sandbox_state(session, m_options.sandbox)); // TEMPORARY (helper C): the lead replaces sandbox_state() with the
                                                // version returning sandbox_status
  if (g_interrupted && result.cases.size() < m_cases.size() && decide_solution(decisions).v == verdict::accepted) {
    result.v = verdict::internal_error;
    result.message = "interrupted before every case ran";
    return;
  }
  const decision overall = decide_solution(decisions);
  result.v = overall.v;
  for (const case_result& cr : result.cases)
    if (cr.v != verdict::accepted) {
      result.message = fmt::format("case {} ({}{}): {}", cr.name, cr.shape, cr.hidden ? ", hidden" : "", cr.message);
      break;
    }
  result.score = result.v == verdict::accepted && all_timed_ok ? judge_stats::geometric_mean(hidden_speeds) : 0;
}

} // namespace judge
