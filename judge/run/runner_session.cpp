#include "judge/run/runner_session.hpp"

#include "judge/run/output_window.hpp"

#include "common/wire_json.hpp"
#include "common/seconds_into.hpp"
#include "judge/run/learner_output.hpp"
#include "judge/sandbox/judge_paths.hpp"
#include "judge/sandbox/sandbox_limits.hpp"

#include <fmt/format.h>

#include <variant>

namespace judge {

using judge_phases::seconds_into;

namespace {
using clock_type = std::chrono::steady_clock;

clock_type::duration span(double seconds) {
  return std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(seconds));
}

clock_type::time_point after(double seconds) { return clock_type::now() + span(seconds); }

std::string join_banned(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ",") + n;
  return out;
}

request_facts ended_by(request_outcome outcome, child_process::exit_status exit) {
  request_facts facts;
  facts.outcome = outcome;
  facts.exit = exit;
  return facts;
}
} // namespace

process_options runner_process_options(const runner_options& options) {
  process_options p;
  p.argv = {options.runner.string(), "--scratch", options.scratch.string(), "--timing",
            judge_wire::to_string(options.timing)};
  if (!options.solution.empty()) p.argv.insert(p.argv.end(), {"--solution", options.solution.string()});
  if (options.role == runner_role::recording) p.argv.push_back("--record");
  if (options.load_on_request) p.argv.push_back("--load-on-request");
  if (options.outputs != nullptr) {
    p.argv.push_back("--output-window");
    p.shared_fd = options.outputs->fd();
  }
  if (options.role == runner_role::replaying) {
    std::string files;
    for (const auto& f : options.device_code) files += (files.empty() ? "" : ",") + f.string();
    p.argv.insert(p.argv.end(), {"--replay", files});
  }
  if (!options.banned_libraries.empty()) {
    p.argv.push_back("--banned");
    p.argv.push_back(join_banned(options.banned_libraries));
  }
  p.env = child_environment();
  // The driver's JIT cache would write files under $HOME, which the system-call filter denies (and the
  // sandbox does not show): runners carry machine code for the GPU, so nothing needs compiling anyway.
  p.env["CUDA_CACHE_DISABLE"] = "1";
  p.working_dir = options.scratch;
  p.output_cap = options.output_cap;
  p.result_channel = true;
  p.sandbox = options.sandbox;
  p.hidden_paths = options.hidden_paths;
  // The private root: the system, the runner, what the options name, the scratch folder (writable), and
  // the GPU. Nothing else of the judge's tree: not the runner cache, the results, the secret, $HOME.
  p.read_only_paths = options.read_only_paths;
  p.read_only_paths.push_back(options.runner.parent_path());
  // The shared object alone, not its cache folder: the files beside it (ptxas's lines, which name the
  // learner's kernels) must not be mappable as code from inside, /proc and the writable paths being noexec.
  if (!options.solution.empty()) p.read_only_paths.push_back(options.solution);
  for (const auto& f : options.device_code) p.read_only_paths.push_back(f.parent_path());
  p.writable_paths = {options.scratch};
  // The judge's own folders stay out of sight where /usr or /opt holds them (an install there); what
  // the runner needs of them (the runner, the solution, the device code) is named above and bound on top.
  p.masked_paths = judge_own_paths();
  p.gpu_devices = true;
  p.tmp_bytes = sandbox_limits::runner::tmp_bytes;
  p.memory_bytes = sandbox_limits::runner::memory_bytes;
  p.max_pids = sandbox_limits::runner::max_pids;
  p.file_size_bytes = sandbox_limits::runner::file_size_bytes;
  return p;
}

runner_session::runner_session(runner_options options) : m_options(std::move(options)) {}

void runner_session::start_early() {
  if (m_child) return;
  m_start = request_facts{};
  m_start.before_hello = true;
  const process_options p = runner_process_options(m_options);
  try {
    m_child = std::make_unique<child_process>(p);
  } catch (const std::exception& e) {
    m_start.outcome = request_outcome::not_started;
    m_start.detail = e.what();
    return;
  }
  m_sandboxed = m_child->sandboxed();
  m_sandbox_failure = m_child->sandbox_note();
  m_layers = m_child->layers();
  m_hello_due = true;
  m_held_read = false;
}

bool runner_session::wait_until_started() {
  if (!m_child) return false;
  if (!m_hello_due || (m_options.load_on_request && m_held_read)) return true;
  const auto answer = next_answer(after(m_options.hello_seconds), m_start);
  if (answer && m_options.load_on_request && std::holds_alternative<judge_wire::held_answer>(*answer)) {
    m_held_read = true;
    return true;
  }
  if (const auto* hello = answer && !m_options.load_on_request ? std::get_if<judge_wire::hello_answer>(&*answer)
                                                               : nullptr) {
    m_hello = *hello;
    m_hello_due = false;
    return true;
  }
  if (answer) start_refused(*answer, m_options.load_on_request ? "held" : "hello");
  m_failed_start_kept = true;
  return false;
}

bool runner_session::say_hello() {
  const bool ok = start();
  m_failed_start_kept = !ok;
  return ok;
}

bool runner_session::start() {
  if (m_failed_start_kept) {
    m_failed_start_kept = false;
    return false;
  }
  if (m_child && !m_hello_due) return true;
  start_early();
  if (!m_child) return false;
  const seconds_into waiting{m_hello_wait_s};
  m_hello_due = false;
  // A held runner that died while it waited says so below, where its hello should have been.
  if (m_options.load_on_request) m_child->send_line(judge_wire::encode(judge_wire::load_request{}));
  const auto answer = next_answer_past_held(after(m_options.hello_seconds), m_start);
  if (!answer) return false;
  if (const auto* hello = std::get_if<judge_wire::hello_answer>(&*answer)) {
    m_hello = *hello;
    return true;
  }
  start_refused(*answer, "hello");
  return false;
}

void runner_session::start_refused(const judge_wire::answer& answer, const std::string& due) {
  if (const auto* no_device = std::get_if<judge_wire::no_device_answer>(&answer)) {
    m_start.outcome = request_outcome::not_started;
    m_start.detail = no_device->error;
    m_start.exit = end_child(false);
    return;
  }
  m_start = unexpected(answer, due);
  m_start.before_hello = true;
}

std::optional<judge_wire::answer> runner_session::next_answer(clock_type::time_point deadline, request_facts& facts) {
  while (m_child) {
    const auto line = m_child->read_result_line(deadline);
    if (!line) {
      const bool timed_out = m_child->timed_out();
      facts.outcome = timed_out ? request_outcome::timed_out : request_outcome::runner_ended;
      facts.exit = end_child(timed_out);
      return std::nullopt;
    }
    // The channel is a private descriptor, so only code that means to write on it does. Every line is
    // an answer or the end of the conversation: a line that is not (learner code writing on the channel,
    // a partial line meant to make the genuine answer unreadable) is never skipped. From a process that
    // runs learner host code it is that process's failure, not the judge's (verdict.cpp).
    const auto parsed = judge_wire::json::parse(*line, nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object()) {
      facts.outcome = request_outcome::out_of_step;
      facts.detail = "it wrote a line on the result channel that is not an answer";
      facts.learner_host_code = runs_learner_host_code();
      facts.exit = end_child(true);
      return std::nullopt;
    }
    try {
      return judge_wire::answer_from_json(parsed);
    } catch (const judge_wire::protocol_error& e) {
      facts.outcome = request_outcome::out_of_step;
      facts.detail = e.what();
      facts.learner_host_code = runs_learner_host_code();
      facts.exit = end_child(true);
      return std::nullopt;
    }
  }
  facts.outcome = request_outcome::not_started;
  facts.detail = "the runner is not running";
  return std::nullopt;
}

std::optional<judge_wire::answer> runner_session::next_answer_past_held(clock_type::time_point deadline,
                                                                       request_facts& facts) {
  auto answer = next_answer(deadline, facts);
  if (answer && m_options.load_on_request && !m_held_read && std::holds_alternative<judge_wire::held_answer>(*answer)) {
    m_held_read = true;
    answer = next_answer(deadline, facts);
  }
  return answer;
}

request_facts runner_session::unexpected(const judge_wire::answer& answer, const std::string& due) {
  request_facts facts;
  facts.learner_host_code = runs_learner_host_code();
  if (const auto* error = std::get_if<judge_wire::error_answer>(&answer)) {
    // The runner exits by itself after an error answer.
    facts.outcome = request_outcome::runner_failed;
    facts.detail = error->error;
    facts.exit = end_child(false);
    return facts;
  }
  if (const auto* denied = std::get_if<judge_wire::denied_answer>(&answer)) {
    // The filter may stop learner code anywhere, so this answer can come in place of any other; the
    // runner exits by itself (code 4) after it.
    facts.outcome = request_outcome::denied;
    facts.denied = *denied;
    facts.exit = end_child(false);
    return facts;
  }
  // Nothing an out-of-step runner says can be trusted.
  facts.outcome = request_outcome::out_of_step;
  facts.detail = fmt::format("it sent a {} answer where {} was due", judge_wire::type_of(answer), due);
  facts.exit = end_child(true);
  return facts;
}

child_process::exit_status runner_session::end_child(bool kill) {
  if (!m_child) return {};
  if (kill) m_child->kill_group();
  const auto status = m_child->wait(after(kill ? 5 : 10));
  const auto& out = m_child->out();
  const auto& err = m_child->err();
  m_output += out.kept + err.kept;
  m_output_dropped += out.dropped_bytes + err.dropped_bytes;
  m_child.reset();
  return status;
}

std::string runner_session::learner_output() const {
  std::string text = m_output;
  if (m_child) text += m_child->out().kept + m_child->err().kept;
  text = without_runner_lines(text);
  // Code can print the paths it was compiled at (__FILE__: the runner cache) or runs in (its scratch).
  std::vector<path_rewrite> rewrites = {{m_options.scratch, ".", "."}};
  for (path_rewrite& r : judge_path_rewrites()) rewrites.push_back(std::move(r));
  text = rewrite_paths(text, rewrites);
  if (m_output_dropped) text += fmt::format("\n[... {} more bytes of output dropped]", m_output_dropped);
  return text;
}

std::vector<call_facts> runner_session::run_checks(const judge_wire::case_request& request, double call_seconds,
                                                   const check_arrived_fn& arrived) {
  std::vector<call_facts> calls;
  const auto unanswered = [&calls](request_facts why) {
    call_facts c;
    c.request = std::move(why);
    calls.push_back(std::move(c));
    return calls;
  };
  if (!start()) return unanswered(m_start);
  if (!m_child->send_line(judge_wire::encode(request)))
    return unanswered(ended_by(request_outcome::runner_ended, end_child(false)));
  // The runner begins each check as soon as it has answered the one before, whatever the judge does
  // meanwhile (`arrived`): each call's limit runs from there.
  clock_type::time_point began = clock_type::now();
  for (std::size_t k = 0; k < request.checks.size(); ++k) {
    request_facts facts;
    auto answer = next_answer(began + span(call_seconds), facts);
    began = clock_type::now();
    if (!answer) {
      if (facts.outcome == request_outcome::timed_out) facts.limit_seconds = call_seconds;
      return unanswered(facts);
    }
    const std::string due = fmt::format("the check answer of case '{}' check {}", request.name, k);
    auto* check = std::get_if<judge_wire::check_answer>(&*answer);
    if (!check) return unanswered(unexpected(*answer, due));
    // An answer for another case or check means the protocol is out of step.
    if (check->case_name != request.name || check->check != k) {
      request_facts wrong;
      wrong.outcome = request_outcome::out_of_step;
      wrong.learner_host_code = runs_learner_host_code();
      wrong.detail = fmt::format("it answered for case '{}' check {} where case '{}' check {} was due",
                                 check->case_name, check->check, request.name, k);
      wrong.exit = end_child(true);
      return unanswered(wrong);
    }
    call_facts c;
    c.answer = std::move(*check);
    const judge_wire::call_status status = c.answer->status;
    calls.push_back(std::move(c));
    if (arrived) arrived(k, calls.back());
    if (status != judge_wire::call_status::ok) {
      // A CUDA error leaves the context unusable; the runner exits and a fresh one serves the next case.
      if (status == judge_wire::call_status::cuda_error) end_child(false);
      return calls;
    }
  }
  return calls;
}

timing_facts runner_session::run_timing(const judge_wire::case_request& request, double limit_seconds) {
  timing_facts t;
  if (!start()) {
    t.request = m_start;
    return t;
  }
  if (!m_child->send_line(judge_wire::encode(request))) {
    t.request = ended_by(request_outcome::runner_ended, end_child(false));
    return t;
  }
  auto answer = next_answer(after(limit_seconds), t.request);
  if (!answer) return t;
  auto* timing = std::get_if<judge_wire::timing_answer>(&*answer);
  if (!timing) {
    t.request = unexpected(*answer, fmt::format("the timing answer of case '{}'", request.name));
    return t;
  }
  if (timing->case_name != request.name) {
    t.request.outcome = request_outcome::out_of_step;
    t.request.learner_host_code = runs_learner_host_code();
    t.request.detail =
        fmt::format("it sent the timing of case '{}' where case '{}' was due", timing->case_name, request.name);
    t.request.exit = end_child(true);
    return t;
  }
  t.answer = std::move(*timing);
  if (t.answer->status == judge_wire::call_status::cuda_error) end_child(false);
  return t;
}

void runner_session::request_end() {
  if (!m_child || m_end_requested) return;
  m_end_requested = true;
  m_end_sent = m_child->send_line(judge_wire::encode(judge_wire::end_request{}));
}

bool runner_session::end_conversation() {
  request_end();
  if (!m_end_sent) return false;
  request_facts ignored;
  // A runner started early whose hello was never read says hello first; one held before loading its
  // solution (never told "load") answers "done" alone, after its "held".
  if (m_hello_due && !m_options.load_on_request) next_answer(after(m_options.hello_seconds), ignored);
  const auto answer = next_answer_past_held(after(10), ignored);
  return answer && std::holds_alternative<judge_wire::done_answer>(*answer);
}

void runner_session::finish() {
  if (!m_child) return;
  end_conversation();
  end_child(false);
  m_end_requested = m_end_sent = m_hello_due = false;
}

std::unique_ptr<child_process> runner_session::finish_without_exit() {
  if (!m_child) return nullptr;
  const bool done = end_conversation();
  std::unique_ptr<child_process> exiting;
  if (m_child && done) {
    // The runner flushed what it printed before it wrote "done": it lies in the pipes now.
    m_child->drain_output();
    // A "done" is the runner leaving (_exit); learner code can write one too and go on. Killed now, no
    // code of it runs while the next solution loads; only the driver's teardown of its context is left.
    m_child->stop_group();
    m_output += m_child->out().kept + m_child->err().kept;
    m_output_dropped += m_child->out().dropped_bytes + m_child->err().dropped_bytes;
    exiting = std::move(m_child);
  } else {
    end_child(false);
  }
  m_end_requested = m_end_sent = m_hello_due = false;
  return exiting;
}

} // namespace judge
