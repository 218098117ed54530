// Grades solutions of one problem: runs the baseline once, then each solution's runner over every case;
// compares outputs with the CPU reference and the baseline, decides verdicts, summarises timings.
#pragma once

#include "compile.hpp"
#include "grade_result.hpp"
#include "problem_spec.hpp"
#include "runner_session.hpp"
#include "test_cases.hpp"

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace judge {

struct grade_options {
  bool timing = true;             ///< time accepted cases
  bool cold_l2 = true;            ///< flush L2 before every timed sample
  double budget_seconds = 0;      ///< [s] per-case timing budget; 0: the spec's
  double case_seconds = 0;        ///< [s] per checked call; 0: the spec's
  int checks = 2;                 ///< checked calls per case, alternating poison values
  bool sandbox = true;
  unsigned cpu_threads = 0;       ///< CPU reference threads; 0: all cores
  std::vector<std::filesystem::path> hidden_paths; ///< hidden from runners in the sandbox
};

/// Progress notifications for the terminal: (solution, case index, case count, case name).
using progress_fn = std::function<void(const std::string&, std::size_t, std::size_t, const std::string&)>;

/// Set from the SIGINT handler: graders stop at the next case boundary.
extern std::atomic<bool> g_interrupted;

class grader {
public:
  grader(problem_spec spec, std::vector<test_case> cases, std::uint64_t secret, device_info device, grade_options options);
  ~grader();
  grader(const grader&) = delete;
  grader& operator=(const grader&) = delete;

  /// Runs the baseline runner over every case: its outputs become a reference (when the spec says so)
  /// and its timings the "% of baseline" column. Returns an error message, or empty on success.
  std::string run_baseline(const build_result& baseline, const progress_fn& progress);
  /// Baseline timings by case name (empty when no baseline ran).
  const std::map<std::string, timing_summary>& baseline_timings() const { return m_baseline_timing; }

  /// Grades one compiled solution. `result` arrives with path, author and compile facts filled in.
  void grade(const build_result& runner, solution_result& result, const progress_fn& progress);

  const problem_spec& spec() const { return m_spec; }
  const std::vector<test_case>& cases() const { return m_cases; }
  const device_info& device() const { return m_device; }
  /// Speed of one call that took `ms` milliseconds, in the spec's unit (GFLOPS or GB/s).
  double speed(const test_case& c, double ms) const;

private:
  call_facts check_outputs(std::size_t case_index, int check, const check_answer& answer);
  const std::map<std::string, std::vector<double>>& cpu_reference(std::size_t case_index, int check);
  std::optional<timing_summary> summarise(const timing_answer& t) const;
  /// Times case `i` on `session` with this run's fresh seed and the spec's (or the options') budget.
  timing_answer time_case(runner_session& session, std::size_t i);
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
  std::map<std::pair<std::size_t, int>, std::map<std::string, std::vector<double>>> m_references;
  std::size_t m_reference_bytes = 0;
  std::map<std::pair<std::size_t, int>, std::map<std::string, std::vector<float>>> m_baseline_outputs;
  std::map<std::size_t, bool> m_baseline_disagrees;
  std::map<std::string, timing_summary> m_baseline_timing;
};

/// Why case `c` cannot run on `device` (its buffers, held several times over by the runner, exceed the
/// device's memory), or empty when it fits or the memory is unknown. Such a case is the instructor's
/// to fix, never the learner's fault.
std::string device_memory_shortfall(const problem_spec& spec, const test_case& c, const device_info& device);

/// Reads a raw float32 file of exactly `count` elements; nullopt if absent or of another size.
std::optional<std::vector<float>> read_floats(const std::filesystem::path& file, std::int64_t count);

} // namespace judge
