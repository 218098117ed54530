#include "report_json.hpp"

#include "not_run_text.hpp"
#include "plausibility.hpp"
#include "plausibility_text.hpp"

#include "file_output.hpp"
#include "hints.hpp"
#include "occupancy.hpp"
#include "problem_spec.hpp"
#include "report_terminal.hpp"
#include "sandbox_text.hpp"
#include "utc_time.hpp"

namespace judge {

namespace {
nlohmann::json launches_json(const std::vector<judge_wire::kernel_launch>& launches, const device_info& device) {
  nlohmann::json list = nlohmann::json::array();
  const std::optional<sm_limits> sm = sm_limits_for(device.cc);
  for (const auto& k : launches) {
    nlohmann::json j = {{"name", k.name},
                        {"grid", {k.grid[0], k.grid[1], k.grid[2]}},
                        {"block", {k.block[0], k.block[1], k.block[2]}},
                        {"static_shared_bytes", k.static_shared_bytes},
                        {"dynamic_shared_bytes", k.dynamic_shared_bytes},
                        {"registers", k.registers},
                        {"occupancy", nullptr}};
    // Unknown SM limits give null, not another GPU's figures.
    if (sm) {
      const occupancy o = launch_occupancy(k, *sm);
      j["occupancy"] = {{"blocks_per_sm", o.blocks_per_sm},
                        {"warps_per_sm", o.warps_per_sm},
                        {"fraction", o.fraction},
                        {"limited_by", limiter_name(o.limiter)},
                        {"waves", device.sms > 0 && o.blocks_per_sm > 0
                                      ? nlohmann::json(waves(k.blocks(), o.blocks_per_sm, device.sms))
                                      : nlohmann::json(nullptr)}};
    }
    list.push_back(std::move(j));
  }
  return list;
}

nlohmann::json kernels_json(const std::vector<kernel_resources>& kernels) {
  nlohmann::json list = nlohmann::json::array();
  for (const kernel_resources& k : kernels)
    list.push_back({{"name", k.name},
                    {"arch", k.arch},
                    {"registers", k.registers},
                    {"static_shared_bytes", k.static_shared_bytes},
                    {"local_bytes", k.local_bytes},
                    {"spill_store_bytes", k.spill_store_bytes},
                    {"spill_load_bytes", k.spill_load_bytes}});
  return list;
}

nlohmann::json hints_json(const std::vector<hint>& hints) {
  nlohmann::json list = nlohmann::json::array();
  for (const hint& h : hints) list.push_back({{"id", h.id}, {"evidence", h.evidence}, {"lesson", h.lesson}});
  return list;
}

nlohmann::json timing_json(const timing_summary& t) {
  return {{"median_ms", t.median_ms},
          {"min_ms", t.min_ms},
          {"max_ms", t.max_ms},
          {"noise", t.noise},
          {"precision", t.precision},
          {"samples", t.samples},
          {"discarded_throttled", t.discarded},
          {"host_median_ms", t.host_median_ms},
          {"sm_clock_mhz", t.sm_clock_mhz},
          {"method", t.method},
          {"cold_l2", t.cold_l2},
          {"stop_reason", t.stop_reason},
          {"warmup_calls", t.warmup_calls}};
}
} // namespace

nlohmann::json to_json(const solution_result& r) {
  nlohmann::json cases = nlohmann::json::array();
  const bool gflops = r.speed_unit == unit_name(speed_unit::gflops);
  for (const case_result& c : r.cases) {
    nlohmann::json j = {{"name", c.name},
                        {"hidden", c.hidden},
                        {"dims", c.sizes},
                        {"shape", c.shape},
                        {"verdict", short_name(c.v)},
                        {"message", c.message},
                        {"median_ms", nullptr},
                        {gflops ? "gflops" : "gbps", nullptr},
                        {"pct_of_baseline", nullptr},
                        {"pct_of_peak", nullptr}};
    if (c.timing) {
      j["median_ms"] = c.timing->median_ms;
      j[gflops ? "gflops" : "gbps"] = c.speed;
      j["timing"] = timing_json(*c.timing);
      j["launches"] = launches_json(c.timing->launches, r.device);
      if (c.baseline_speed > 0) j["pct_of_baseline"] = c.pct_of_baseline;
      if (c.pct_of_peak > 0) j["pct_of_peak"] = c.pct_of_peak;
    }
    if (c.baseline_timing) j["baseline"] = timing_json(*c.baseline_timing);
    if (!c.feedback.empty()) j["feedback"] = c.feedback;
    if (c.implausible)
      j["implausible"] = {{"median_ms", c.implausible->median_ms},
                          {"floor_ms", c.implausible->floor_ms},
                          {"ceiling", ceiling_name(c.implausible->ceiling)},
                          {"work", c.implausible->work},
                          {"peak", c.implausible->peak},
                          {"text", implausible_text(*c.implausible)}};
    cases.push_back(std::move(j));
  }
  // A solution not run has no verdict: "NR", and a message that says why (not_run_text.hpp).
  const std::string verdict_name = r.compiled_only ? not_run_short : short_name(r.v);
  const std::string message = r.compiled_only ? not_run_text : r.message;
  return {{"path", r.path},
          {"author", r.author},
          {"content_hash", r.content_hash},
          {"graded_at", r.graded_at},
          {"verdict", verdict_name},
          {"message", message},
          {"score", r.score},
          {"speed_unit", r.speed_unit},
          {"sandbox", sandbox_text(r.sandbox)},
          {"implausible", r.implausible},
          {"kernels", kernels_json(r.kernels)},
          {"hints", hints_json(r.hints)},
          {"cases", std::move(cases)}};
}

nlohmann::json run_to_json(const std::string& problem, const device_info& device,
                           const std::vector<solution_result>& results, const std::vector<skipped_entry>& skipped,
                           const std::vector<std::string>& not_graded) {
  nlohmann::json solutions = nlohmann::json::array();
  for (const auto& r : results) solutions.push_back(to_json(r));
  nlohmann::json skipped_list = nlohmann::json::array();
  for (const auto& s : skipped)
    skipped_list.push_back({{"path", s.path.string()}, {"reason", skip_reason_text(s.reason)}});
  return {{"problem", problem},
          {"device",
           {{"name", device.name},
            {"cc", device.cc},
            {"sms", device.sms},
            {"sm_clock_max_mhz", device.clock_max_mhz},
            {"fp32_peak_gflops", device.fp32_peak_gflops},
            {"copy_gbps", device.measured_bandwidth_gbps},
            {"dram_peak_gbps", device.dram_peak_gbps}}},
          {"solutions", std::move(solutions)},
          {"skipped", std::move(skipped_list)},
          {"not_graded", not_graded}};
}

nlohmann::json run_facts_json(const run_outcome& outcome) {
  nlohmann::json phases = nlohmann::json::array();
  for (const auto& [phase, seconds] : outcome.phases) phases.push_back({{"phase", phase}, {"seconds", seconds}});
  nlohmann::json baseline = nullptr;
  if (outcome.baseline_timed_at > 0 || !outcome.baseline_error.empty())
    baseline = {{"label", outcome.spec.baseline.label},
                {"timed_at", outcome.baseline_timed_at > 0 ? utc_text(outcome.baseline_timed_at) : ""},
                {"from_cache", outcome.baseline_from_cache},
                {"error", outcome.baseline_error}};
  return {{"baseline", baseline}, {"phases", phases}};
}

void write_json_file(const std::filesystem::path& path, const nlohmann::json& document) {
  write_file_atomically(path, document.dump(2) + "\n", "the JSON report");
}

} // namespace judge
