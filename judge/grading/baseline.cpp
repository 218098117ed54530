// The baseline run of a grader, and the cross-check of its outputs against the CPU reference.
#include "judge/grading/baseline.hpp"

#include "judge/grading/case_data.hpp"
#include "judge/problem/case_tolerance.hpp"
#include "judge/grading/compare.hpp"
#include "judge/compile/content_hash.hpp"
#include "judge/grading/device_fit.hpp"
#include "judge/grading/grader.hpp"
#include "judge/grading/output_files.hpp"
#include "judge/grading/timing_figures.hpp"
#include "judge/grading/verdict.hpp"
#include "judge/base/utc_time.hpp"

#include <fmt/format.h>

namespace judge {

bool references_disagree(const problem_spec& spec, const test_case& c, const float_outputs& baseline,
                         const double_outputs& reference) {
  for (const auto& [name, values] : baseline)
    for (const parameter* p : spec.buffers())
      if (p->name == name &&
          compare_output(name, values, reference.at(name), buffer_shape(*p, c), case_tolerance(spec, c), p->type))
        return true;
  return false;
}

bool same_as_reference(const problem_spec& spec, const float_outputs& baseline, const double_outputs& reference) {
  for (const auto& [name, values] : baseline) {
    const auto ref = reference.find(name);
    if (ref == reference.end() || ref->second.size() != values.size()) return false;
    const parameter* buffer = nullptr;
    for (const parameter* p : spec.buffers())
      if (p->name == name) buffer = p;
    if (buffer == nullptr) return false;
    const bool ints = buffer->type == judge_data::element_type::int32;
    for (std::size_t i = 0; i < values.size(); ++i) {
      // A NaN is never the same: comparing with it decides differently from comparing with nothing.
      const double v = ints ? static_cast<double>(judge_data::int_of_word(values[i])) : static_cast<double>(values[i]);
      if (!(v == ref->second[i])) return false;
    }
  }
  return true;
}

std::string grader::baseline_key(const build_result& baseline) const {
  content_hash key;
  key.add("baseline run v1").add(m_device.uuid).add(m_device.name).add(fmt::format("{}", m_device.clock_max_mhz));
  key.add(baseline.content_hash).add(baseline.runner.parent_path().filename().string()); // runner-<its hash>
  key.add(fmt::format("timing {} cold_l2 {} method {} budget {} checks {}", m_options.timing, m_options.cold_l2,
                      judge_wire::to_string(m_options.timing_method), budget_seconds(), m_options.checks));
  // Only the cases that decide: the baseline never runs a robustness case unless grading is strict.
  for (std::size_t i = 0; i < m_deciding; ++i) {
    key.add(m_cases[i].name).add(shape_text(m_spec, m_cases[i])).add(m_cases[i].timed ? "timed" : "checked");
    for (const std::uint64_t seed : check_seeds(i)) key.add(std::to_string(seed));
  }
  return key.hex();
}

std::string grader::run_baseline(const build_result& baseline, const progress_fn& progress) {
  if (baseline.status != build_status::ok) return "the baseline did not build: " + baseline.message;
  const bool keep = !m_options.baseline_cache_dir.empty() && !m_device.uuid.empty();
  const std::string key = keep ? baseline_key(baseline) : "";
  if (keep && m_options.baseline_max_age.count() > 0)
    if (auto cached = load_baseline(m_options.baseline_cache_dir, key, m_options.baseline_max_age)) {
      m_baseline = std::move(cached->record);
      m_baseline_timed_at = cached->timed_at;
      m_baseline_from_cache = true;
      return "";
    }
  m_baseline_timed_at = epoch_seconds_now();
  const std::string error = run_baseline_now(baseline, progress);
  // Only a whole run is kept; one cut short by an interrupt or an error is run again next time.
  if (keep && error.empty() && !g_interrupted) store_baseline(m_options.baseline_cache_dir, key, m_baseline);
  return error;
}

std::string grader::run_baseline_now(const build_result& baseline, const progress_fn& progress) {
  const scratch_folder scratch = new_scratch("baseline");
  runner_session session(runner_options_for(baseline, scratch, runner_role::trusted));
  if (!session.start()) return "the baseline runner did not start: " + describe(session.start_facts());
  // Robustness cases are the solutions' alone (unless strict): past the limits, the baseline owes nothing,
  // and a baseline that fails there must not take the figures of every other case with it.
  for (std::size_t i = 0; i < m_deciding && !g_interrupted; ++i) {
    const test_case& c = m_cases[i];
    if (const std::string why = device_memory_shortfall(m_spec, c, m_device); !why.empty()) return why;
    if (progress) progress(m_spec.baseline.label, i, m_cases.size(), c.name);
    const judge_wire::case_request request = checks_request(i);
    const auto calls = session.run_checks(request, call_seconds() + 30);
    const auto counts = buffer_counts(m_spec, c);
    for (std::size_t k = 0; k < calls.size(); ++k) {
      const call_facts& call = calls[k];
      if (!call.answer) return fmt::format("the baseline failed on case {}: {}", c.name, describe(call.request));
      const judge_wire::check_answer& answer = *call.answer;
      if (answer.status != judge_wire::call_status::ok)
        return fmt::format("the baseline failed on case {}: {}", c.name,
                           answer.error.value_or(judge_wire::to_string(answer.status)));
      const std::vector<std::string>& files = request.checks[k].output_files;
      if (!m_spec.baseline.is_reference) {
        for (const std::string& f : files) scratch.remove_file(f);
        continue;
      }
      float_outputs outputs;
      std::size_t output = 0;
      for (const judge_wire::buffer_spec& b : request.buffers) {
        if (!b.is_result()) continue;
        output_read read = take_output(scratch, answer, files.at(output++), counts.at(b.name));
        if (!read.values)
          return fmt::format("the baseline's output {} of case {} could not be read: {}", b.name, c.name, read.problem);
        outputs[b.name] = std::move(*read.values);
      }
      // The two references must agree before either may judge a learner.
      const double_outputs& reference = cpu_reference(i, static_cast<int>(k));
      if (references_disagree(m_spec, c, outputs, reference)) m_baseline.disagreeing_cases.insert(i);
      // Outputs the CPU reference holds exactly (a transpose, an exact count) would only repeat its
      // comparison, over the largest outputs of a run: only the others are kept to compare with.
      if (!same_as_reference(m_spec, outputs, reference))
        m_baseline.outputs[{i, static_cast<int>(k)}] = std::move(outputs);
    }
    if (m_options.timing && c.timed) {
      const timing_facts t = time_case(session, i);
      if (t.answer)
        if (auto s = summarise(*t.answer)) m_baseline.timings[c.name] = *s;
    }
  }
  session.finish();
  return "";
}

} // namespace judge
