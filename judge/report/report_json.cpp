#include "report_json.hpp"

#include "not_run_text.hpp"
#include "plausibility.hpp"
#include "plausibility_text.hpp"

#include "file_output.hpp"
#include "hints.hpp"
#include "kernel_json.hpp"
#include "occupancy.hpp"
#include "problem_spec.hpp"
#include "report_terminal.hpp"
#include "sandbox_text.hpp"
#include "sanitizer_json.hpp"
#include "sanitizer_text.hpp"
#include "utc_time.hpp"

#include <stdexcept>

namespace judge {

namespace {
nlohmann::json launches_json(const std::vector<judge_wire::kernel_launch>& launches, const device_info& device) {
  nlohmann::json list = nlohmann::json::array();
  const std::optional<sm_limits> sm = sm_limits_for(device.cc);
  for (const auto& k : launches) {
    nlohmann::json j = launch_json(k);
    j["occupancy"] = nullptr;
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
    if (!c.sanitizer.empty()) {
      // The store's facts, with the words of the terminal report beside them.
      nlohmann::json runs = sanitizer_json(c.sanitizer);
      for (std::size_t k = 0; k < c.sanitizer.size(); ++k) {
        runs[k]["summary"] = run_summary(c.sanitizer[k]);
        for (std::size_t f = 0; f < c.sanitizer[k].findings.size(); ++f)
          runs[k]["findings"][f]["text"] = finding_text(c.sanitizer[k].findings[f]);
      }
      j["sanitizer"] = std::move(runs);
    }
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

nlohmann::json device_to_json(const device_info& device) {
  return {{"name", device.name},
          {"uuid", device.uuid},
          {"cc", device.cc},
          {"sms", device.sms},
          {"sm_clock_max_mhz", device.clock_max_mhz},
          {"fp32_peak_gflops", device.fp32_peak_gflops},
          {"copy_gbps", device.measured_bandwidth_gbps},
          {"dram_peak_gbps", device.dram_peak_gbps}};
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
          {"device", device_to_json(device)},
          {"solutions", std::move(solutions)},
          {"skipped", std::move(skipped_list)},
          {"not_graded", not_graded}};
}

namespace {
// Reading back: every field to_json() writes is required, so a document of another shape is refused
// with the field's name rather than read as zeros.
const nlohmann::json& field(const nlohmann::json& j, const char* name, const std::string& where) {
  if (!j.is_object() || !j.contains(name)) throw std::runtime_error(where + "field " + name + ": missing");
  return j.at(name);
}

template <typename T> T value_of(const nlohmann::json& j, const char* name, const std::string& where) {
  const nlohmann::json& v = field(j, name, where);
  try {
    return v.get<T>();
  } catch (const nlohmann::json::exception&) {
    throw std::runtime_error(where + "field " + name + ": of the wrong type (" + v.type_name() + ")");
  }
}

/// A number that to_json() writes as null when absent: 0 then.
double number_or_zero(const nlohmann::json& j, const char* name, const std::string& where) {
  const nlohmann::json& v = field(j, name, where);
  return v.is_null() ? 0.0 : value_of<double>(j, name, where);
}

timing_summary timing_from_json(const nlohmann::json& j, const std::string& where) {
  timing_summary t;
  t.median_ms = value_of<double>(j, "median_ms", where);
  t.min_ms = value_of<double>(j, "min_ms", where);
  t.max_ms = value_of<double>(j, "max_ms", where);
  t.noise = value_of<double>(j, "noise", where);
  t.precision = value_of<double>(j, "precision", where);
  t.samples = value_of<int>(j, "samples", where);
  t.discarded = value_of<int>(j, "discarded_throttled", where);
  t.host_median_ms = value_of<double>(j, "host_median_ms", where);
  t.sm_clock_mhz = value_of<double>(j, "sm_clock_mhz", where);
  t.method = value_of<std::string>(j, "method", where);
  t.cold_l2 = value_of<bool>(j, "cold_l2", where);
  t.stop_reason = value_of<std::string>(j, "stop_reason", where);
  t.warmup_calls = value_of<int>(j, "warmup_calls", where);
  return t;
}

sandbox_status sandbox_from_text(const std::string& text) {
  if (text.empty()) return {};
  if (text == "off") return {sandbox_mode::off, ""};
  const std::string unavailable = "unavailable: ";
  if (text.rfind(unavailable, 0) == 0) return {sandbox_mode::unavailable, text.substr(unavailable.size())};
  return {sandbox_mode::on, ""};
}

case_result case_from_json(const nlohmann::json& j, const std::string& speed_key, const std::string& where) {
  case_result c;
  c.name = value_of<std::string>(j, "name", where);
  const std::string at = where + "case " + c.name + ": ";
  c.hidden = value_of<bool>(j, "hidden", at);
  c.sizes = value_of<std::vector<std::int64_t>>(j, "dims", at);
  c.shape = value_of<std::string>(j, "shape", at);
  const auto v = verdict_from_short_name(value_of<std::string>(j, "verdict", at));
  if (!v) throw std::runtime_error(at + "field verdict: not a verdict's short name");
  c.v = *v;
  c.message = value_of<std::string>(j, "message", at);
  if (j.contains("timing")) {
    c.timing = timing_from_json(j.at("timing"), at + "timing: ");
    c.speed = number_or_zero(j, speed_key.c_str(), at);
    c.pct_of_baseline = number_or_zero(j, "pct_of_baseline", at);
    c.pct_of_peak = number_or_zero(j, "pct_of_peak", at);
    // The baseline's speed is not written; the percentage of it is, and it follows from the two.
    if (c.pct_of_baseline > 0) c.baseline_speed = c.speed * 100.0 / c.pct_of_baseline;
  }
  if (j.contains("baseline")) c.baseline_timing = timing_from_json(j.at("baseline"), at + "baseline: ");
  if (j.contains("feedback")) c.feedback = value_of<std::string>(j, "feedback", at);
  if (j.contains("sanitizer")) c.sanitizer = sanitizer_from_json(j.at("sanitizer"), at + "sanitizer");
  if (j.contains("implausible")) {
    const nlohmann::json& i = j.at("implausible");
    const std::string in = at + "implausible: ";
    implausible_time t;
    t.median_ms = value_of<double>(i, "median_ms", in);
    t.floor_ms = value_of<double>(i, "floor_ms", in);
    const auto ceiling = ceiling_from_name(value_of<std::string>(i, "ceiling", in));
    if (!ceiling) throw std::runtime_error(in + "field ceiling: not a ceiling's name");
    t.ceiling = *ceiling;
    t.work = value_of<double>(i, "work", in);
    t.peak = value_of<double>(i, "peak", in);
    c.implausible = t;
  }
  return c;
}
} // namespace

solution_result result_from_json(const nlohmann::json& j) {
  const std::string where = "result: ";
  solution_result r;
  r.path = value_of<std::string>(j, "path", where);
  r.author = value_of<std::string>(j, "author", where);
  r.content_hash = value_of<std::string>(j, "content_hash", where);
  r.graded_at = value_of<std::string>(j, "graded_at", where);
  const std::string verdict_name = value_of<std::string>(j, "verdict", where);
  r.compiled_only = verdict_name == not_run_short;
  if (r.compiled_only) {
    r.v = verdict::internal_error; // as grading leaves it (grade_result.hpp)
  } else {
    const auto v = verdict_from_short_name(verdict_name);
    if (!v) throw std::runtime_error(where + "field verdict: \"" + verdict_name + "\" is not a verdict");
    r.v = *v;
    r.message = value_of<std::string>(j, "message", where);
  }
  r.score = value_of<double>(j, "score", where);
  r.speed_unit = value_of<std::string>(j, "speed_unit", where);
  r.sandbox = sandbox_from_text(value_of<std::string>(j, "sandbox", where));
  r.implausible = value_of<bool>(j, "implausible", where);
  const std::string speed_key = r.speed_unit == unit_name(speed_unit::gflops) ? "gflops" : "gbps";
  const nlohmann::json& cases = field(j, "cases", where);
  if (!cases.is_array()) throw std::runtime_error(where + "field cases: not a list");
  for (const nlohmann::json& c : cases) r.cases.push_back(case_from_json(c, speed_key, where));
  return r;
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
