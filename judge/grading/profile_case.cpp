#include "judge/grading/profile_case.hpp"

#include "judge/grading/case_data.hpp"
#include "judge/problem/check_seed.hpp"
#include "judge/run/device_probe.hpp"
#include "judge/grading/hints.hpp"
#include "judge/grading/occupancy.hpp"
#include "judge/profile/profile_text.hpp"
#include "judge/grading/scratch_folder.hpp"
#include "judge/problem/secret.hpp"
#include "common/wire_json.hpp"

#include <regex>
#include <sstream>

#include <unistd.h>

namespace judge {

std::size_t default_profile_case(const problem_spec& spec, const std::vector<test_case>& cases) {
  std::size_t best = 0;
  double best_work = -1;
  bool best_timed = false;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const double work = static_cast<double>(spec.flops.evaluate(cases[i].sizes)) +
                        static_cast<double>(spec.bytes.evaluate(cases[i].sizes));
    // A robustness case lies past the limits, and grading times it only when strict: never the default.
    const bool timed = cases[i].timed && !cases[i].robustness();
    if ((timed && !best_timed) || (timed == best_timed && work > best_work)) {
      best = i;
      best_work = work;
      best_timed = timed;
    }
  }
  return best;
}

case_profile profile_case(const problem_spec& spec, const std::vector<test_case>& cases, std::size_t index,
                          const build_result& build, const std::filesystem::path& ncu, const device_info& device,
                          const std::filesystem::path& report) {
  const test_case& c = cases.at(index);
  // The first checked call's seed, as grading draws it: the same inputs as the call that was checked.
  const std::uint64_t seed = check_seed(load_or_create_secret(secret_path()), spec.name, c, 0);
  ncu_request request;
  request.ncu = ncu;
  request.runner = build.runner;
  request.solution = build.solution;
  request.requests = {judge_wire::encode(make_case_request(spec, c, static_cast<int>(index), {seed}, std::nullopt)),
                      judge_wire::encode(judge_wire::end_request{})};
  request.metrics = profile_metrics();
  request.report = report;
  const scratch_folder scratch =
      scratch_folder::create_temporary("gpu-judge-profile-" + std::to_string(::getpid()) + "-");
  request.scratch = scratch.path();
  request.seconds = profile_seconds;
  // In the sandbox as in grading; the secret is not in its root anyway, and is covered if a bind shows it.
  request.hidden_paths = hidden_from_learner_code();
  case_profile profile;
  profile.run = run_ncu(request);
  if (profile.run.outcome != ncu_outcome::ok) return profile;
  try {
    const roofline_peaks peaks{device.fp32_peak_gflops * 1e9, bandwidth_peak(device) * 1e9};
    profile.kernels = digest_launches(
        parse_ncu_csv(profile.run.csv),
        peaks.fp32_flops_per_s > 0 && peaks.dram_bytes_per_s > 0 ? std::optional<roofline_peaks>(peaks) : std::nullopt);
  } catch (const ncu_csv_error& e) {
    profile.run.outcome = ncu_outcome::failed;
    profile.run.detail = std::string("its report's CSV: ") + e.what();
    return profile;
  }
  if (profile.kernels.empty()) profile.run.outcome = ncu_outcome::no_kernels;
  return profile;
}

result_profile profile_result(const problem_spec& spec, const std::vector<test_case>& cases,
                              const std::filesystem::path& source, const toolchain& tools,
                              const std::optional<std::filesystem::path>& ncu, const std::filesystem::path& report_dir,
                              solution_result& r) {
  result_profile out;
  const case_result* largest = nullptr;
  for (const case_result& c : r.cases)
    if (c.timing && (!largest || c.flops + c.bytes > largest->flops + largest->bytes)) largest = &c;
  if (r.v != verdict::accepted || !largest) return out;
  out.case_name = largest->name;
  if (!ncu) {
    out.note = "Nsight Compute (ncu) is not installed: no profiler figures or hints";
    return out;
  }
  const build_result build = build_runner(spec, source, runner_kind::solution, tools);
  if (build.status != build_status::ok) {
    out.note = "its runner could not be built again for the profiler: " + build.message;
    return out;
  }
  const std::string stem = source.has_stem() ? source.stem().string() : source.parent_path().stem().string();
  out.report = report_dir / (stem + "-" + largest->name + ".ncu-rep");
  std::error_code ignored;
  std::filesystem::create_directories(report_dir, ignored);
  const case_profile p =
      profile_case(spec, cases, index_of_case(spec, cases, largest->name), build, *ncu, r.device, out.report);
  out.seconds = p.run.seconds;
  if (p.run.outcome != ncu_outcome::ok) {
    out.note = ncu_failure_text(p.run);
    return out;
  }
  out.kernels = p.kernels;
  hint_facts facts{r, {}, sm_limits_for(r.device.cc)};
  facts.profile = p.kernels;
  facts.profiled_case = largest->name;
  facts.tensor_cores_allowed = spec.tensor_cores_allowed;
  for (hint& h : profiler_hints(facts)) r.hints.push_back(std::move(h));
  return out;
}

run_profiler::run_profiler(std::filesystem::path problems_root, std::filesystem::path testcases_root,
                           std::string problem, std::filesystem::path report_dir)
    : m_problems_root(std::move(problems_root)), m_testcases_root(std::move(testcases_root)),
      m_report_dir(std::move(report_dir)), m_problem(std::move(problem)) {}

result_profile run_profiler::profile(const std::filesystem::path& source, solution_result& r) {
  // The profile only adds to a result that is graded already: whatever goes wrong here is said in its
  // note, and the result stays as grading left it.
  const std::vector<hint> graded_hints = r.hints;
  try {
    if (!m_tools) { // each looked up once, and kept only when all of them were found
      problem_spec spec = load_problem(m_problems_root / m_problem);
      std::vector<test_case> cases = load_cases(spec, m_testcases_root / m_problem / "cases.yaml");
      toolchain tools = toolchain_for(probe_device(false));
      m_ncu = find_ncu(tools);
      m_spec = std::move(spec);
      m_cases = std::move(cases);
      m_tools = std::move(tools);
    }
    return profile_result(*m_spec, m_cases, source, *m_tools, m_ncu, m_report_dir, r);
  } catch (const std::exception& e) {
    r.hints = graded_hints;
    result_profile failed;
    failed.note = std::string("the profiler could not run: ") + e.what();
    return failed;
  }
}

std::vector<std::string> expected_hints(const std::string& source_text) {
  static const std::regex line(R"(^\s*//\s*Expected hint:\s*([A-Za-z0-9_]+)\s*$)");
  std::vector<std::string> ids;
  std::istringstream lines(source_text);
  std::string text;
  std::smatch m;
  while (std::getline(lines, text))
    if (std::regex_match(text, m, line)) ids.push_back(m[1]);
  return ids;
}

} // namespace judge
