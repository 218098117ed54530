#include "judge/grading/timing_figures.hpp"

#include "common/stats.hpp"

#include <algorithm>
#include <cmath>

namespace judge {

std::optional<timing_summary> summarise(const judge_wire::timing_answer& t) {
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
    clocks.assign(t.sm_clock_mhz.begin(), t.sm_clock_mhz.end());
  }
  s.samples = static_cast<int>(kept.size());
  s.median_ms = judge_stats::median(kept);
  s.min_ms = *std::min_element(kept.begin(), kept.end());
  s.max_ms = *std::max_element(kept.begin(), kept.end());
  s.noise = judge_stats::relative_stddev(kept);
  const double precision = judge_stats::median_relative_half_width(kept);
  s.precision = std::isfinite(precision) ? precision : 0;
  s.host_median_ms = judge_stats::median(host);
  s.sm_clock_mhz = judge_stats::median(clocks);
  s.method = judge_wire::to_string(t.method);
  s.cold_l2 = t.cold_l2;
  s.stop_reason = t.stop_reason ? judge_wire::to_string(*t.stop_reason) : "";
  s.warmup_calls = static_cast<int>(t.warmup_calls);
  s.launches = t.kernels;
  return s;
}

double speed_of(const problem_spec& spec, const test_case& c, double ms) {
  if (!(ms > 0)) return 0;
  const double work = static_cast<double>(spec.unit_work().evaluate(c.sizes));
  return work / (ms * 1e-3) / 1e9;
}

} // namespace judge
