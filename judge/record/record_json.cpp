#include "judge/record/record_json.hpp"

#include "judge/problem/problem.hpp"
#include "judge/record/kernel_json.hpp"
#include "judge/record/mismatch_json.hpp"
#include "judge/record/record_names.hpp"
#include "judge/sanitizer/sanitizer_json.hpp"

#include <stdexcept>

namespace judge {

namespace {

// Every field record_json() writes is required, so a document of another shape is refused with the
// field's name rather than read as zeros.
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

/// A figure: nlohmann::json writes a NaN as null, and a NaN figure must not cost a learner their result.
double number_or_zero(const nlohmann::json& j, const char* name, const std::string& where) {
  return field(j, name, where).is_null() ? 0.0 : value_of<double>(j, name, where);
}

/// The list in field `name`, each element read by `read` (which may throw nlohmann's exceptions).
template <typename T, typename Read>
std::vector<T> list_of(const nlohmann::json& j, const char* name, const std::string& where, Read read) {
  const nlohmann::json& list = field(j, name, where);
  if (!list.is_array()) throw std::runtime_error(where + "field " + name + ": not a list");
  std::vector<T> items;
  for (std::size_t k = 0; k < list.size(); ++k) {
    try {
      items.push_back(read(list[k]));
    } catch (const nlohmann::json::exception& e) {
      throw std::runtime_error(where + "field " + name + "[" + std::to_string(k) + "]: " + e.what());
    }
  }
  return items;
}

verdict verdict_of(const nlohmann::json& j, const std::string& where) {
  const std::string name = value_of<std::string>(j, "verdict", where);
  const auto v = verdict_from_short_name(name);
  if (!v) throw std::runtime_error(where + "field verdict: \"" + name + "\" is not a verdict's short name");
  return *v;
}

nlohmann::json case_json(const case_result& c, bool gflops) {
  const char* speed_key = gflops ? "gflops" : "gbps";
  nlohmann::json j = {{"name", c.name},        {"hidden", c.hidden},         {"dims", c.sizes},
                      {"shape", c.shape},      {"verdict", short_name(c.v)}, {"message", c.message},
                      {"median_ms", nullptr},  {speed_key, nullptr},         {"pct_of_baseline", nullptr},
                      {"pct_of_peak", nullptr}};
  if (c.timing) {
    j["median_ms"] = c.timing->median_ms;
    j[speed_key] = c.speed;
    j["timing"] = timing_json(*c.timing);
    nlohmann::json launches = nlohmann::json::array();
    for (const judge_wire::kernel_launch& k : c.timing->launches) launches.push_back(launch_json(k));
    j["launches"] = std::move(launches);
    if (c.baseline_speed > 0) j["pct_of_baseline"] = c.pct_of_baseline;
    if (c.pct_of_peak > 0) j["pct_of_peak"] = c.pct_of_peak;
  }
  if (c.baseline_timing) j["baseline"] = timing_json(*c.baseline_timing);
  if (!c.feedback.empty()) j["feedback"] = c.feedback;
  if (c.implausible) j["implausible"] = implausible_json(*c.implausible);
  if (!c.sanitizer.empty()) j["sanitizer"] = sanitizer_json(c.sanitizer);
  if (c.wrong) j["wrong"] = mismatch_json(*c.wrong);
  if (!c.beyond_limits.empty()) j["beyond_limits"] = c.beyond_limits;
  return j;
}

case_result case_from_json(const nlohmann::json& j, const char* speed_key, const std::string& where) {
  case_result c;
  c.name = value_of<std::string>(j, "name", where);
  const std::string at = where + "case " + c.name + ": ";
  c.hidden = value_of<bool>(j, "hidden", at);
  c.sizes = value_of<std::vector<std::int64_t>>(j, "dims", at);
  c.shape = value_of<std::string>(j, "shape", at);
  c.v = verdict_of(j, at);
  c.message = value_of<std::string>(j, "message", at);
  if (j.contains("timing")) {
    c.timing = timing_from_json(j.at("timing"), at + "timing: ");
    c.timing->launches = list_of<judge_wire::kernel_launch>(j, "launches", at, launch_from_json);
    c.speed = number_or_zero(j, speed_key, at);
    c.pct_of_baseline = number_or_zero(j, "pct_of_baseline", at);
    c.pct_of_peak = number_or_zero(j, "pct_of_peak", at);
    // The baseline's speed is not written; the percentage of it is, and it follows from the two.
    if (c.pct_of_baseline > 0) c.baseline_speed = c.speed * 100.0 / c.pct_of_baseline;
  }
  if (j.contains("baseline")) c.baseline_timing = timing_from_json(j.at("baseline"), at + "baseline: ");
  if (j.contains("feedback")) c.feedback = value_of<std::string>(j, "feedback", at);
  if (j.contains("implausible")) c.implausible = implausible_from_json(j.at("implausible"), at + "implausible: ");
  if (j.contains("sanitizer")) c.sanitizer = sanitizer_from_json(j.at("sanitizer"), at + "sanitizer");
  if (j.contains("wrong")) c.wrong = mismatch_from_json(j.at("wrong"), at + "wrong: ");
  if (j.contains("beyond_limits")) c.beyond_limits = value_of<std::string>(j, "beyond_limits", at);
  return c;
}

} // namespace

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

timing_summary timing_from_json(const nlohmann::json& j, const std::string& where) {
  timing_summary t;
  t.median_ms = number_or_zero(j, "median_ms", where);
  t.min_ms = number_or_zero(j, "min_ms", where);
  t.max_ms = number_or_zero(j, "max_ms", where);
  t.noise = number_or_zero(j, "noise", where);
  t.precision = number_or_zero(j, "precision", where);
  t.samples = value_of<int>(j, "samples", where);
  t.discarded = value_of<int>(j, "discarded_throttled", where);
  t.host_median_ms = number_or_zero(j, "host_median_ms", where);
  t.sm_clock_mhz = number_or_zero(j, "sm_clock_mhz", where);
  t.method = value_of<std::string>(j, "method", where);
  t.cold_l2 = value_of<bool>(j, "cold_l2", where);
  t.stop_reason = value_of<std::string>(j, "stop_reason", where);
  t.warmup_calls = value_of<int>(j, "warmup_calls", where);
  return t;
}

nlohmann::json sandbox_json(const sandbox_status& s) {
  nlohmann::json missing = nlohmann::json::array();
  for (const missing_layer& m : s.layers.missing)
    missing.push_back({{"layer", sandbox_layer_name(m.layer)}, {"reason", m.reason}});
  return {{"mode", sandbox_mode_name(s.mode)}, {"reason", s.reason}, {"missing_layers", std::move(missing)}};
}

sandbox_status sandbox_from_json(const nlohmann::json& j, const std::string& where) {
  sandbox_status s;
  const std::string mode = value_of<std::string>(j, "mode", where);
  const auto m = sandbox_mode_from_name(mode);
  if (!m) throw std::runtime_error(where + "field mode: \"" + mode + "\" is not a sandbox mode");
  s.mode = *m;
  s.reason = value_of<std::string>(j, "reason", where);
  const nlohmann::json& missing = field(j, "missing_layers", where);
  if (!missing.is_array()) throw std::runtime_error(where + "field missing_layers: not a list");
  for (const nlohmann::json& l : missing) {
    const std::string name = value_of<std::string>(l, "layer", where + "missing_layers: ");
    const auto layer = sandbox_layer_from_name(name);
    if (!layer) throw std::runtime_error(where + "missing_layers: field layer: \"" + name + "\" is not a layer");
    s.layers.set_missing(*layer, value_of<std::string>(l, "reason", where + "missing_layers: "));
  }
  return s;
}

nlohmann::json implausible_json(const implausible_time& t) {
  return {{"median_ms", t.median_ms},
          {"floor_ms", t.floor_ms},
          {"ceiling", ceiling_name(t.ceiling)},
          {"work", t.work},
          {"peak", t.peak}};
}

implausible_time implausible_from_json(const nlohmann::json& j, const std::string& where) {
  implausible_time t;
  t.median_ms = value_of<double>(j, "median_ms", where);
  t.floor_ms = value_of<double>(j, "floor_ms", where);
  const auto ceiling = ceiling_from_name(value_of<std::string>(j, "ceiling", where));
  if (!ceiling) throw std::runtime_error(where + "field ceiling: not a ceiling's name");
  t.ceiling = *ceiling;
  t.work = value_of<double>(j, "work", where);
  t.peak = value_of<double>(j, "peak", where);
  return t;
}

nlohmann::json device_json(const device_info& device) {
  return {{"name", device.name},
          {"uuid", device.uuid},
          {"cc", device.cc},
          {"sms", device.sms},
          {"sm_clock_max_mhz", device.clock_max_mhz},
          {"fp32_peak_gflops", device.fp32_peak_gflops},
          {"copy_gbps", device.measured_bandwidth_gbps},
          {"dram_peak_gbps", device.dram_peak_gbps}};
}

nlohmann::json record_json(const solution_result& r) {
  const bool gflops = r.speed_unit == unit_name(speed_unit::gflops);
  nlohmann::json cases = nlohmann::json::array();
  for (const case_result& c : r.cases) cases.push_back(case_json(c, gflops));
  nlohmann::json robustness = nlohmann::json::array();
  for (const case_result& c : r.robustness) robustness.push_back(case_json(c, gflops));
  // A solution not run has no verdict: "NR" (its verdict field is internal_error, which it did not earn).
  nlohmann::json j = {{"path", r.path},
                      {"author", r.author},
                      {"content_hash", r.content_hash},
                      {"graded_at", r.graded_at},
                      {"case_set", r.case_set},
                      {"verdict", r.compiled_only ? not_run_verdict_name : short_name(r.v)},
                      {"message", r.message},
                      {"score", r.score},
                      {"speed_unit", r.speed_unit},
                      {"sandbox", sandbox_json(r.sandbox)},
                      {"implausible", r.implausible},
                      {"kernels", kernels_json(r.kernels)},
                      {"hints", hints_json(r.hints)},
                      {"cases", std::move(cases)},
                      {"robustness", std::move(robustness)},
                      {"cases_not_run", {{"cases", r.cases_not_run}, {"reason", r.cases_not_run_reason}}}};
  // Only where there is an explanation: a result without one reads as it did before they were kept.
  if (r.sanitizer.state != explanation_state::none) j["sanitizer"] = explanation_json(r.sanitizer);
  return j;
}

solution_result record_from_json(const nlohmann::json& j) {
  const std::string where = "result: ";
  solution_result r;
  r.path = value_of<std::string>(j, "path", where);
  r.author = value_of<std::string>(j, "author", where);
  r.content_hash = value_of<std::string>(j, "content_hash", where);
  r.graded_at = value_of<std::string>(j, "graded_at", where);
  // Results recorded before the case-set version was kept have none: "" (unknown).
  if (j.contains("case_set")) r.case_set = value_of<std::string>(j, "case_set", where);
  r.compiled_only = value_of<std::string>(j, "verdict", where) == not_run_verdict_name;
  if (r.compiled_only) {
    r.v = verdict::internal_error; // as grading leaves it (grade_result.hpp); the message is the reports'
  } else {
    r.v = verdict_of(j, where);
    r.message = value_of<std::string>(j, "message", where);
  }
  r.score = value_of<double>(j, "score", where);
  r.speed_unit = value_of<std::string>(j, "speed_unit", where);
  r.sandbox = sandbox_from_json(field(j, "sandbox", where), where + "sandbox: ");
  r.implausible = value_of<bool>(j, "implausible", where);
  r.kernels = list_of<kernel_resources>(j, "kernels", where, kernel_from_json);
  r.hints = list_of<hint>(j, "hints", where, hint_from_json);
  const char* speed_key = r.speed_unit == unit_name(speed_unit::gflops) ? "gflops" : "gbps";
  const nlohmann::json& cases = field(j, "cases", where);
  if (!cases.is_array()) throw std::runtime_error(where + "field cases: not a list");
  for (const nlohmann::json& c : cases) r.cases.push_back(case_from_json(c, speed_key, where));
  // Results recorded before robustness cases existed have none.
  if (j.contains("robustness")) {
    const nlohmann::json& robustness = field(j, "robustness", where);
    if (!robustness.is_array()) throw std::runtime_error(where + "field robustness: not a list");
    for (const nlohmann::json& c : robustness)
      r.robustness.push_back(case_from_json(c, speed_key, where + "robustness: "));
  }
  // Results recorded before cases were left out after a failure ran every case.
  if (j.contains("cases_not_run")) {
    const nlohmann::json& not_run = field(j, "cases_not_run", where);
    r.cases_not_run = list_of<std::string>(not_run, "cases", where + "cases_not_run: ",
                                     [](const nlohmann::json& name) { return name.get<std::string>(); });
    r.cases_not_run_reason = value_of<std::string>(not_run, "reason", where + "cases_not_run: ");
  }
  // A result without a planned explanation has none (and results recorded before explanations were kept).
  if (j.contains("sanitizer")) r.sanitizer = explanation_from_json(j.at("sanitizer"), where + "sanitizer");
  return r;
}

} // namespace judge
