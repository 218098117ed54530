#include "runner_session.hpp"

#include <fmt/format.h>

namespace judge {

namespace {
using clock_type = std::chrono::steady_clock;

clock_type::time_point after(double seconds) {
  return clock_type::now() + std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(seconds));
}

std::string join_banned(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ",") + n;
  return out;
}
} // namespace

runner_session::runner_session(runner_options options) : m_options(std::move(options)) {}

bool runner_session::start() {
  if (m_child) return true;
  process_options p;
  p.argv = {m_options.runner.string(), "--scratch", m_options.scratch.string()};
  if (!m_options.banned_libraries.empty()) {
    p.argv.push_back("--banned");
    p.argv.push_back(join_banned(m_options.banned_libraries));
  }
  p.env = child_environment();
  p.working_dir = m_options.scratch;
  p.output_cap = m_options.output_cap;
  p.result_channel = true;
  p.sandbox = m_options.sandbox;
  p.hidden_paths = m_options.hidden_paths;
  try {
    m_child = std::make_unique<child_process>(p);
  } catch (const std::exception& e) {
    m_failure = fmt::format("cannot start the runner: {}", e.what());
    return false;
  }
  m_sandboxed = m_child->sandboxed();
  m_sandbox_failure = m_child->sandbox_note();
  bool timed_out = false;
  auto hello = next_answer(after(m_options.hello_seconds), timed_out);
  if (!hello || hello->value("type", "") != "hello") {
    m_failure = timed_out ? "the runner did not start within the time limit" : "the runner " + end_child(false) + " before saying hello";
    if (timed_out) end_child(true);
    return false;
  }
  if (hello->contains("error")) {
    m_failure = hello->value("error", "the runner could not start");
    end_child(false);
    return false;
  }
  m_hello = *hello;
  return true;
}

std::optional<nlohmann::json> runner_session::next_answer(clock_type::time_point deadline, bool& timed_out) {
  timed_out = false;
  while (m_child) {
    auto line = m_child->read_result_line(deadline);
    if (!line) {
      timed_out = m_child->timed_out();
      return std::nullopt;
    }
    // A line that is not JSON came from learner code writing to fd 3; it is ignored, and it cannot
    // change a verdict because verdicts come from the output files the judge checks itself.
    auto parsed = nlohmann::json::parse(*line, nullptr, false);
    if (!parsed.is_discarded() && parsed.is_object()) return parsed;
  }
  return std::nullopt;
}

std::string runner_session::end_child(bool killed_for_time) {
  if (!m_child) return "was not running";
  if (killed_for_time) m_child->kill_group();
  const auto status = m_child->wait(after(killed_for_time ? 5 : 10));
  const auto& out = m_child->out();
  const auto& err = m_child->err();
  m_output += out.kept + err.kept;
  m_output_dropped += out.dropped_bytes + err.dropped_bytes;
  m_child.reset();
  return describe(status);
}

std::string runner_session::learner_output() const {
  std::string text = m_output;
  if (m_child) text += m_child->out().kept + m_child->err().kept;
  if (m_output_dropped) text += fmt::format("\n[... {} more bytes of output dropped]", m_output_dropped);
  return text;
}

std::vector<check_answer> runner_session::run_checks(const nlohmann::json& request, int checks, double call_seconds) {
  std::vector<check_answer> answers;
  if (!start()) {
    check_answer a;
    a.facts.runner_died = true;
    a.facts.death = m_failure;
    answers.push_back(a);
    return answers;
  }
  if (!m_child->send_line(request.dump())) {
    check_answer a;
    a.facts.runner_died = true;
    a.facts.death = end_child(false);
    answers.push_back(a);
    return answers;
  }
  for (int k = 0; k < checks; ++k) {
    check_answer a;
    bool timed_out = false;
    auto answer = next_answer(after(call_seconds), timed_out);
    if (!answer) {
      a.facts.timed_out = timed_out;
      a.facts.runner_died = !timed_out;
      a.facts.death = end_child(timed_out);
      answers.push_back(a);
      return answers;
    }
    if (answer->value("type", "") != "check") {
      a.facts.runner_died = true;
      a.facts.death = fmt::format("sent '{}' where a check answer was due", answer->value("type", "?"));
      end_child(true);
      answers.push_back(a);
      return answers;
    }
    // Answers must belong to this request: one for another case or check means the protocol is out of
    // step, and nothing it says can be trusted.
    if (answer->value("case", "") != request.value("name", "") || answer->value("check", -1) != k) {
      a.facts.runner_died = true;
      a.facts.death = fmt::format("answered for case '{}' check {} where case '{}' check {} was due",
                                  answer->value("case", "?"), answer->value("check", -1), request.value("name", "?"), k);
      end_child(true);
      answers.push_back(a);
      return answers;
    }
    call_facts& f = a.facts;
    f.reported = true;
    f.runner_status = answer->value("status", "");
    f.runner_error = answer->value("error", "");
    for (const auto& m : answer->value("inputs_modified", nlohmann::json::array()))
      f.inputs_modified.push_back(fmt::format("{} (first changed element at index {})", m.value("name", "?"), m.value("index", -1)));
    for (const auto& g : answer->value("guard_violations", nlohmann::json::array()))
      f.guard_violations.push_back(fmt::format("{}: {} bytes {} its {}", g.value("name", "?"), g.value("offset", 0) + 1,
                                               g.value("side", "") == "before" ? "before" : "after",
                                               g.value("side", "") == "before" ? "start" : "end"));
    for (const auto& b : answer->value("banned_loaded", nlohmann::json::array())) f.banned_loaded.push_back(b.get<std::string>());
    for (const auto& o : answer->value("outputs", nlohmann::json::array()))
      a.output_files.emplace_back(o.value("name", ""), std::filesystem::path(o.value("file", "")));
    const std::string status = f.runner_status;
    answers.push_back(std::move(a));
    if (status != "ok") {
      // A CUDA error leaves the context unusable; the runner exits and a fresh one serves the next case.
      if (status == "cuda_error") end_child(false);
      return answers;
    }
  }
  return answers;
}

timing_answer runner_session::run_timing(const nlohmann::json& request, double limit_seconds) {
  timing_answer t;
  if (!start() || !m_child->send_line(request.dump())) {
    t.facts.runner_died = true;
    t.facts.death = m_child ? end_child(false) : m_failure;
    return t;
  }
  bool timed_out = false;
  auto answer = next_answer(after(limit_seconds), timed_out);
  if (!answer || answer->value("type", "") != "timing") {
    t.facts.timed_out = timed_out;
    t.facts.runner_died = !timed_out;
    t.facts.death = end_child(true);
    return t;
  }
  t.facts.reported = true;
  t.facts.status = answer->value("status", "ok");
  t.facts.error = answer->value("error", "");
  t.facts.mismatched_samples = answer->value("mismatched_samples", 0);
  if (auto fm = answer->find("first_mismatch"); fm != answer->end() && fm->is_object())
    t.facts.first_mismatch = fmt::format("{} run {}: {} at index {}: expected {}, got {}", fm->value("phase", "timed"),
                                         fm->value("sample", -1), fm->value("buffer", "?"), fm->value("index", -1),
                                         fm->value("expected_text", "?"), fm->value("got_text", "?"));
  // Writing into an input during a timed run is as wrong as during a checked one.
  const int modified = answer->value("inputs_modified_samples", 0);
  if (auto fi = answer->find("first_input_modification"); modified > 0 && fi != answer->end() && fi->is_object()) {
    t.facts.mismatched_samples += modified;
    if (t.facts.first_mismatch.empty())
      t.facts.first_mismatch = fmt::format("{} run {}: solve() wrote into its input {} (first changed element at index {})",
                                           fi->value("phase", "timed"), fi->value("sample", -1), fi->value("buffer", "?"),
                                           fi->value("index", -1));
  }
  t.stop_reason = answer->value("stop_reason", "");
  t.other_streams = answer->value("other_streams_after_return", false);
  t.gpu_ms = answer->value("gpu_ms", std::vector<double>{});
  t.host_ms = answer->value("host_ms", std::vector<double>{});
  t.sm_clock_mhz = answer->value("sm_clock_mhz", std::vector<double>{});
  t.throttled = answer->value("throttled", std::vector<bool>{});
  t.method = answer->value("method", "");
  t.cold_l2 = answer->value("cold_l2", true);
  t.warmup_calls = answer->value("warmup_calls", 0);
  if (t.facts.status == "cuda_error") end_child(false);
  return t;
}

void runner_session::finish() {
  if (!m_child) return;
  if (m_child->send_line(R"({"type":"end"})")) {
    bool timed_out = false;
    next_answer(after(10), timed_out); // "done"
  }
  end_child(false);
}

} // namespace judge
