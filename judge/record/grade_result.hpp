// The graded record: the outcome of grading one solution, as facts. Grading makes it; the baseline cache,
// the store, the reports, the queue and Slurm read and write it through its one codec (record_json.hpp).
#pragma once

#include "common/wire.hpp"
#include "judge/compile/kernel_resources.hpp"
#include "judge/problem/verdicts.hpp"
#include "judge/run/device_info.hpp"
#include "judge/run/runner_facts.hpp"
#include "judge/sandbox/sandbox_layers.hpp"
#include "judge/sanitizer/sanitizer_explanation.hpp"
#include "judge/sanitizer/sanitizer_run.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace judge {

/// Summary of the timed samples of one case (statistics over the accepted samples).
struct timing_summary {
  double median_ms = 0; ///< [ms] the ranked figure
  double min_ms = 0, max_ms = 0;
  double noise = 0; ///< relative standard deviation of the kept samples [fraction]
  /// Half-width of the median's 95% confidence interval, relative [fraction]: how precisely the ranked
  /// figure is known (judge_stats::median_relative_half_width); 0 when too few samples for one.
  double precision = 0;
  int samples = 0;           ///< kept samples
  int discarded = 0;         ///< samples dropped because the SM clock was throttled
  double host_median_ms = 0; ///< [ms] host wall time of solve() including synchronisation
  double sm_clock_mhz = 0;   ///< median SM clock during the kept samples [MHz]
  std::string method;        ///< "cupti" or "events"
  bool cold_l2 = true;
  std::string stop_reason; ///< why sampling stopped: "precision", "budget" or "max_samples"
  int warmup_calls = 0;
  /// The learner's kernels launched by one timed sample (CUPTI's kernel records; the judge's own
  /// kernels left out), one per name and configuration; empty when the runner timed with events.
  std::vector<judge_wire::kernel_launch> launches;
};

/// The device ceiling a physical floor comes from (grading/plausibility.hpp).
enum class speed_ceiling {
  fp32_peak,          ///< SMs × 128 FMA/clock × 2 × max SM clock
  dram_peak,          ///< 2 × max memory clock × bus width
  measured_bandwidth, ///< the probe's copy bandwidth × 1.25, where the DRAM peak is unknown
  tf32_tensor_peak,   ///< SMs × dense TF32 FMA/clock/SM × 2 × max SM clock (run/tensor_peak.hpp)
};

/// A time below the least the case's work can take on the device (grading/plausibility.hpp): the
/// figures that flagged it, kept with the result for the instructor.
struct implausible_time {
  double median_ms = 0; ///< [ms] the measured, ranked time
  double floor_ms = 0;  ///< [ms] `work` at `peak`
  speed_ceiling ceiling = speed_ceiling::fp32_peak;
  double work = 0; ///< [FLOP] for fp32_peak and tf32_tensor_peak, else [B] that must cross DRAM
  double peak = 0; ///< [GFLOPS] or [GB/s]: the ceiling's figure

  bool operator==(const implausible_time& o) const {
    return median_ms == o.median_ms && floor_ms == o.floor_ms && ceiling == o.ceiling && work == o.work &&
           peak == o.peak;
  }
};

struct case_result {
  std::string name;
  bool hidden = true;
  std::string shape; ///< "1024x512x1024"
  std::vector<std::int64_t> sizes;
  verdict v = verdict::internal_error;
  std::string message;
  std::optional<timing_summary> timing;
  double speed = 0; ///< GFLOPS or GB/s from timing.median_ms; 0 when untimed
  std::optional<timing_summary> baseline_timing;
  double baseline_speed = 0;
  double pct_of_baseline = 0;  ///< speed / baseline_speed * 100
  double pct_of_peak = 0;      ///< speed / device peak * 100
  double flops = 0, bytes = 0; ///< work.flops and work.bytes of one call at this case's sizes
  std::string feedback;        ///< e.g. host time far above GPU time
  /// Set when the time is below the device's physical floor for this case: the solution is not ranked.
  std::optional<implausible_time> implausible;
  /// compute-sanitizer runs of this case (sanitizer/sanitize.hpp): after a failure they explain (the
  /// solution's `sanitizer` says which case and where it stands), or every case's with --sanitize; empty
  /// when none ran (yet).
  std::vector<sanitizer_run> sanitizer;
  /// The wrong output of a wrong answer found in a checked call: its first wrong element, the judge's
  /// bound there and LeetGPU's count (reports say "within LeetGPU's tolerance" from it).
  std::optional<mismatch> wrong;
  /// A robustness case's `beyond_limits`: why it lies outside the problem's published limits; "" else.
  std::string beyond_limits;
};

/// Whether a solution's runner ran in the process sandbox (at least its own user, network and mount
/// namespaces; sandbox_status::layers says which further layers were missing).
enum class sandbox_mode {
  not_run,     ///< the runner never ran (a compile error, no GPU), or the result was stored before this was
  on,          ///< in the sandbox
  off,         ///< outside it, as asked (--no-sandbox)
  unavailable, ///< outside it: asked for, refused by the system (sandbox_status::reason says how)
};

struct sandbox_status {
  sandbox_status() = default;
  sandbox_status(sandbox_mode m, std::string r, sandbox_layers l = {})
      : mode(m), reason(std::move(r)), layers(std::move(l)) {}

  sandbox_mode mode = sandbox_mode::not_run;
  std::string reason; ///< for unavailable: the system's refusal, e.g. "unshare: Operation not permitted"
  /// For on: the layers beyond the namespaces that were not in force, and why (none missing: all were).
  sandbox_layers layers;

  bool operator==(const sandbox_status& other) const {
    return mode == other.mode && reason == other.reason && layers == other.layers;
  }
  bool operator!=(const sandbox_status& other) const { return !(*this == other); }
};

/// A lesson the measured figures point to (grading/hints.hpp): the rule that fired, what to learn, and the
/// figures that made it fire, so a learner can check the claim.
struct hint {
  std::string id;       ///< the rule's id ("spills", "register_limited_occupancy", ...)
  std::string lesson;   ///< what to try, and why
  std::string evidence; ///< the measured figures: "matmul_naive: 496 bytes spill stores per thread"

  bool operator==(const hint& o) const { return id == o.id && lesson == o.lesson && evidence == o.evidence; }
};

struct solution_result {
  std::string problem;
  std::string path; ///< as given on the command line / found in the folder
  std::string author;
  std::string content_hash;
  std::string graded_at; ///< ISO-8601 UTC
  /// The version of the cases it was graded on (problem/case_set_version.hpp); "" when not known (stored
  /// before results kept it).
  std::string case_set;
  verdict v = verdict::internal_error;
  std::string message;
  std::string compile_output;
  std::string learner_output; ///< stdout+stderr kept (capped)
  std::vector<case_result> cases;
  /// The robustness cases (test_case::beyond_limits), run after `cases` when grading was not strict: what
  /// the solution does beyond the published limits. Never part of the verdict, the score or a rank.
  std::vector<case_result> robustness;
  /// The cases, deciding or robustness, that were not run because an earlier failure had decided the
  /// verdict (grading/cases_after_failure.hpp), in their order, and why; empty when every case ran.
  std::vector<std::string> cases_not_run;
  std::string cases_not_run_reason;
  double score = 0;       ///< geometric mean of speed over timed hidden cases; 0 if not AC
  std::string speed_unit; ///< "GFLOPS" or "GB/s"
  sandbox_status sandbox; ///< how its runner ran
  /// It compiled but was not run, because the run had no CUDA device (its verdict is internal_error):
  /// its verdict says nothing about the solution.
  bool compiled_only = false;
  /// A timed case's time is below the device's physical floor (its case_result::implausible says which
  /// and by how much): stored and shown, flagged for the instructor, never ranked.
  bool implausible = false;
  device_info device;
  /// Its kernels as ptxas compiled them (compile/kernel_resources.hpp); empty when it did not compile.
  std::vector<kernel_resources> kernels;
  /// What the figures of this result suggest to try next (grading/hints.hpp).
  std::vector<hint> hints;
  /// compute-sanitizer's explanation of its first failure (sanitizer/sanitizer_explanation.hpp): planned
  /// when the verdict is decided, run after it; its runs land in the explained case's `sanitizer`.
  sanitizer_explanation sanitizer;
  /// [s] where its grading's time went, phase by phase (grading/grader.hpp's run_phases): for the run's
  /// reports; not kept in the results store.
  std::vector<std::pair<std::string, double>> phases;
};

} // namespace judge
