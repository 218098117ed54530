// Grades solutions of one problem: runs the baseline once (baseline.cpp), then each solution's runner
// over every case; compares outputs with the CPU reference and the baseline, decides verdicts,
// summarises timings.
#pragma once

#include "baseline.hpp"
#include "compile.hpp"
#include "grade_result.hpp"
#include "interrupt.hpp" // g_interrupted, which graders and their callers read
#include "problem_spec.hpp"
#include "reference_cache.hpp"
#include "runner_session.hpp"
#include "test_cases.hpp"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace judge {

struct grade_options {
  bool timing = true;        ///< time accepted cases
  bool cold_l2 = true;       ///< flush L2 before every timed sample
  double budget_seconds = 0; ///< [s] per-case timing budget; 0: the spec's
  double case_seconds = 0;   ///< [s] per checked call; 0: the spec's
  int checks = 2;            ///< checked calls per case, alternating poison values
  bool sandbox = true;
  unsigned cpu_threads = 0;                        ///< CPU reference threads; 0: all cores
  std::vector<std::filesystem::path> hidden_paths; ///< hidden from runners in the sandbox
  /// Visible (read-only) to runners in the sandbox: the CUDA library folders they load from.
  std::vector<std::filesystem::path> runner_library_dirs;
};

/// Progress notifications for the terminal: (solution, case index, case count, case name).
using progress_fn = std::function<void(const std::string&, std::size_t, std::size_t, const std::string&)>;

class grader {
public:
  grader(problem_spec spec, std::vector<test_case> cases, std::uint64_t secret, device_info device,
         grade_options options);
  ~grader();
  grader(const grader&) = delete;
  grader& operator=(const grader&) = delete;

  /// Runs the baseline runner over every case: its outputs become a reference (when the spec says so)
  /// and its timings the "% of baseline" column. Returns an error message, or empty on success.
  std::string run_baseline(const build_result& baseline, const progress_fn& progress);
  /// Baseline timings by case name (empty when no baseline ran).
  const std::map<std::string, timing_summary>& baseline_timings() const { return m_baseline.timings; }

  /// Grades one compiled solution. `result` arrives with path, author and compile facts filled in.
  void grade(const build_result& runner, solution_result& result, const progress_fn& progress);

  const problem_spec& spec() const { return m_spec; }
  const std::vector<test_case>& cases() const { return m_cases; }
  const device_info& device() const { return m_device; }
  /// Speed of one call that took `ms` milliseconds, in the spec's unit (GFLOPS or GB/s).
  double speed(const test_case& c, double ms) const;

private:
  /// Runs case `i` on `session`: checked calls, then (when they are right and the case is timed) timing.
  case_result grade_case(runner_session& session, std::size_t i, const std::string& who, const progress_fn& progress);
  /// Adds to `facts` what the output files of checked call `check` of case `case_index` hold: the first
  /// wrong buffer, against the CPU reference and then the baseline's outputs.
  void check_outputs(std::size_t case_index, int check, call_facts& facts);
  /// Speed, its share of the baseline's and of the device's peak, and feedback, from `cr.timing`.
  void add_figures(case_result& cr, const test_case& c) const;
  /// Geometric mean of the speeds of the hidden timed cases of an accepted solution; 0 otherwise.
  double score(const solution_result& result) const;
  const reference_cache::outputs& cpu_reference(std::size_t case_index, int check);
  /// Times case `i` on `session` with this run's fresh seed and the spec's (or the options') budget.
  timing_facts time_case(runner_session& session, std::size_t i);
  runner_options runner_options_for(const build_result& runner, bool baseline, const std::string& tag);
  double call_seconds() const;
  double budget_seconds() const;

  problem_spec m_spec;
  std::vector<test_case> m_cases;
  std::vector<std::uint64_t> m_case_seeds;
  std::uint64_t m_timing_seed;
  device_info m_device;
  grade_options m_options;
  std::filesystem::path m_scratch_root;
  int m_runs = 0;
  reference_cache m_references;
  baseline_record m_baseline;
};

} // namespace judge
