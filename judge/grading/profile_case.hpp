// One case of a compiled solution under Nsight Compute, digested: what `judge profile`, `judge run
// --explain` and `judge verify` (a fixture's expected hint) share. The caller holds the GPU's lock.
#pragma once

#include "judge/compile/compile.hpp"
#include "judge/run/device_info.hpp"
#include "judge/record/grade_result.hpp"
#include "judge/profile/ncu_profile.hpp"
#include "judge/problem/problem.hpp"
#include "judge/profile/profile_digest.hpp"
#include "judge/problem/cases.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace judge {

/// The case profiled when none is named: the timed case with the most work (FLOPs + bytes), where the
/// figures matter most and which grading ranks (a robustness case counts as untimed: grading times it
/// only when strict); the case with the most work when none is timed. One
/// case, one ncu run: ncu replays every kernel once per pass, so each case costs a run of its own.
std::size_t default_profile_case(const problem_spec& spec, const std::vector<test_case>& cases);

/// The limit of one profiled run [s]: ncu starts, the runner starts, and every kernel is replayed.
constexpr double profile_seconds = 120;

struct case_profile {
  ncu_result run;
  std::vector<kernel_digest> kernels; ///< in launch order; empty unless run.outcome is ok
};

/// Profiles one checked call of case `index` with `build`'s runner and solution under `ncu`, keeping the
/// report at `report`. The device's peaks stand in for ncu's where it gave none.
case_profile profile_case(const problem_spec& spec, const std::vector<test_case>& cases, std::size_t index,
                          const build_result& build, const std::filesystem::path& ncu, const device_info& device,
                          const std::filesystem::path& report);

/// What profiling adds to a graded result (`judge run --explain`, `judge verify`).
struct result_profile {
  std::string case_name;              ///< the case profiled; "" when none was
  std::vector<kernel_digest> kernels; ///< its digest; empty when there is none (then `note` says why)
  std::string note;                   ///< why there is no profile, in words
  std::filesystem::path report;
  double seconds = 0; ///< [s] the profiled run
};

/// Profiles the timed case of accepted result `r` with the most work, when `ncu` is there, and appends
/// the profiler's hints to r.hints. `source` is r's solution (file or folder), built again (from the
/// cache) for its runner; the report goes to `report_dir`. Nothing is profiled for a result that was not
/// accepted or has no timed case (note empty: there is nothing to say).
result_profile profile_result(const problem_spec& spec, const std::vector<test_case>& cases,
                              const std::filesystem::path& source, const toolchain& tools,
                              const std::optional<std::filesystem::path>& ncu, const std::filesystem::path& report_dir,
                              solution_result& r);

/// profile_result for the solutions of one run (`judge run --explain`, `judge verify`): the problem, its
/// cases, the toolchain and ncu are looked up once, at the first solution profiled.
class run_profiler {
public:
  run_profiler(std::filesystem::path problems_root, std::filesystem::path testcases_root, std::string problem,
               std::filesystem::path report_dir);
  result_profile profile(const std::filesystem::path& source, solution_result& r);
  /// Whether ncu was found (false before the first profile()).
  bool has_ncu() const { return m_ncu.has_value(); }

private:
  std::filesystem::path m_problems_root, m_testcases_root, m_report_dir;
  std::string m_problem;
  std::optional<problem_spec> m_spec;
  std::vector<test_case> m_cases;
  std::optional<toolchain> m_tools;
  std::optional<std::filesystem::path> m_ncu;
};

/// The hint ids a solution's source declares it must get, one per line "// Expected hint: <id>" (judge
/// verify checks them on a GPU).
std::vector<std::string> expected_hints(const std::string& source_text);

} // namespace judge
