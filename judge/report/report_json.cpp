#include "judge/report/report_json.hpp"

#include "judge/grading/plausibility.hpp"
#include "judge/report/mismatch_text.hpp"
#include "judge/report/cases_not_run_text.hpp"
#include "judge/report/not_run_text.hpp"
#include "judge/report/plausibility_text.hpp"

#include "judge/base/file_output.hpp"
#include "judge/base/utc_time.hpp"
#include "judge/grading/hints.hpp"
#include "judge/grading/occupancy.hpp"
#include "judge/problem/problem.hpp"
#include "judge/report/report_terminal.hpp"
#include "judge/report/robustness_text.hpp"
#include "judge/report/cases_not_run_text.hpp"
#include "judge/report/sandbox_text.hpp"
#include "judge/sanitizer/sanitizer_json.hpp"
#include "judge/sanitizer/sanitizer_text.hpp"

#include <stdexcept>

namespace judge {

namespace {
/// The occupancy of a launch on `device` (null where its SM limits are unknown: not another GPU's figures).
nlohmann::json occupancy_json(const judge_wire::kernel_launch& k, const device_info& device) {
  const std::optional<sm_limits> sm = sm_limits_for(device.cc);
  if (!sm) return nullptr;
  const occupancy o = launch_occupancy(k, *sm);
  return {{"blocks_per_sm", o.blocks_per_sm},
          {"warps_per_sm", o.warps_per_sm},
          {"fraction", o.fraction},
          {"limited_by", limiter_name(o.limiter)},
          {"waves", device.sms > 0 && o.blocks_per_sm > 0
                        ? nlohmann::json(waves(k.blocks(), o.blocks_per_sm, device.sms))
                        : nlohmann::json(nullptr)}};
}
/// A case's sanitizer runs as the record writes them, with each run's summary and each finding's words.
nlohmann::json runs_with_words(const std::vector<sanitizer_run>& runs) {
  nlohmann::json out = sanitizer_json(runs);
  for (std::size_t k = 0; k < runs.size(); ++k) {
    out[k]["summary"] = run_summary(runs[k]);
    for (std::size_t f = 0; f < runs[k].findings.size(); ++f)
      out[k]["findings"][f]["text"] = finding_text(runs[k].findings[f]);
  }
  return out;
}
/// [{"phase", "seconds"}], in the phases' order: a run's, or one solution's.
nlohmann::json phases_json(const std::vector<std::pair<std::string, double>>& phases) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& [phase, seconds] : phases) out.push_back({{"phase", phase}, {"seconds", seconds}});
  return out;
}
} // namespace

nlohmann::json to_json(const solution_result& r) {
  nlohmann::json j = record_json(r);
  j["sandbox"]["text"] = sandbox_text(r.sandbox);
  if (r.compiled_only) j["message"] = not_run_text;
  for (std::size_t n = 0; n < r.cases.size(); ++n) {
    const case_result& c = r.cases[n];
    nlohmann::json& out = j["cases"][n];
    if (c.timing)
      for (std::size_t k = 0; k < c.timing->launches.size(); ++k)
        out["launches"][k]["occupancy"] = occupancy_json(c.timing->launches[k], r.device);
    if (c.implausible) out["implausible"]["text"] = implausible_text(*c.implausible);
    if (!c.sanitizer.empty()) out["sanitizer"] = runs_with_words(c.sanitizer);
    if (c.wrong)
      if (const auto note = leetgpu_note(*c.wrong)) out["wrong"]["leetgpu_text"] = *note;
  }
  for (std::size_t n = 0; n < r.robustness.size(); ++n) j["robustness"][n]["text"] = robustness_line(r.robustness[n]);
  if (!r.cases_not_run.empty()) j["cases_not_run"]["text"] = cases_not_run_line(r);
  // Where this solution's grading took its time; the run's phases (the document's) sum every solution's.
  if (!r.phases.empty()) j["phases"] = phases_json(r.phases);
  return j;
}

nlohmann::json with_explanation(nlohmann::json document, const solution_result& explained) {
  if (explained.sanitizer.state == explanation_state::none)
    document.erase("sanitizer");
  else
    document["sanitizer"] = explanation_json(explained.sanitizer);
  if (!document.contains("cases") || !document["cases"].is_array()) return document;
  for (const case_result& c : explained.cases)
    for (nlohmann::json& shown : document["cases"]) {
      if (shown.value("name", std::string()) != c.name) continue;
      if (c.sanitizer.empty())
        shown.erase("sanitizer");
      else
        shown["sanitizer"] = runs_with_words(c.sanitizer);
    }
  return document;
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
          {"device", device_json(device)},
          {"solutions", std::move(solutions)},
          {"skipped", std::move(skipped_list)},
          {"not_graded", not_graded}};
}

nlohmann::json run_facts_json(const run_outcome& outcome) {
  nlohmann::json baseline = nullptr;
  if (outcome.baseline_timed_at > 0 || !outcome.baseline_error.empty())
    baseline = {{"label", outcome.spec.baseline.label},
                {"timed_at", outcome.baseline_timed_at > 0 ? utc_text(outcome.baseline_timed_at) : ""},
                {"from_cache", outcome.baseline_from_cache},
                {"error", outcome.baseline_error}};
  return {{"baseline", baseline}, {"phases", phases_json(outcome.phases)}};
}

void write_json_file(const std::filesystem::path& path, const nlohmann::json& document) {
  write_file_atomically(path, document.dump(2) + "\n", "the JSON report");
}

} // namespace judge
