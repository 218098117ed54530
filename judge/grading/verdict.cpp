#include "judge/grading/verdict.hpp"

#include "common/wire_json.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <csignal>

namespace judge {

namespace {

constexpr const char* judges_fault = "; this is the judge's fault, not yours";

std::string where(const mismatch& m) {
  if (m.first_coords.size() == 2)
    return fmt::format("index {} (row {}, col {})", m.first_index, m.first_coords[0], m.first_coords[1]);
  if (m.first_coords.size() > 2) return fmt::format("index {} ({})", m.first_index, fmt::join(m.first_coords, ", "));
  return fmt::format("index {}", m.first_index);
}

std::string mismatch_text(const mismatch& m) {
  std::string got = std::isnan(m.got) ? "NaN" : fmt::format("{:.9g}", m.got);
  // The runner fills outputs with a poison value before each call; seeing one back means the element
  // was never written, which is the most useful thing a learner can be told about it.
  if (judge_wire::is_poison(m.got)) got += " (the poison value: this element was never written)";
  return fmt::format("{} of {} elements of {} are wrong (against the {}); first at {}: expected {:.9g}, got {}",
                     m.count, m.total, m.buffer, m.against, where(m), m.expected, got);
}

std::string joined(const std::vector<std::string>& items) { return fmt::format("{}", fmt::join(items, "; ")); }

std::string inputs_text(const std::vector<judge_wire::input_modification>& modified) {
  std::vector<std::string> items;
  for (const auto& m : modified)
    items.push_back(fmt::format("{} (first changed element at index {})", m.name, m.index));
  return joined(items);
}

std::string guards_text(const std::vector<judge_wire::named_guard_violation>& violations) {
  std::vector<std::string> items;
  for (const auto& g : violations) {
    // The offset counts from the edge: 0 is the first byte past the end, 1 the last byte before the start.
    const bool before = g.violation.side == judge_wire::guard_side::before;
    items.push_back(fmt::format("{}: {} bytes {} its {}", g.name, before ? g.violation.offset : g.violation.offset + 1,
                                before ? "before" : "after", before ? "start" : "end"));
  }
  return joined(items);
}

/// How the runner ended, as a predicate: "exited with code 3", "was killed by signal 11 (SIGSEGV)".
std::string ended(const std::optional<child_process::exit_status>& exit) {
  if (!exit) return "stopped";
  const std::string how = judge::describe(*exit);
  return exit->exited ? how : "was " + how;
}

bool exited_with_0(const request_facts& r) { return r.exit && r.exit->exited && r.exit->exit_code == 0; }

bool is_identifier(const std::string& name) {
  return !name.empty() && std::all_of(name.begin(), name.end(),
                                      [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

/// "solve() (or code it runs) called clone(), which the judge forbids: no new processes ...".
std::string denied_text(const request_facts& r) {
  const std::string who = r.before_hello ? "the solution's code" : "solve() (or code it runs)";
  if (!r.denied) return who + " made a system call the judge forbids";
  const std::string& call = r.denied->call;
  // The filter names a system call ("clone"), or a kind of call ("a 32-bit or x32 system call").
  const std::string what = is_identifier(call) ? "called " + call + "()" : "made " + call;
  return fmt::format("{} {}, which the judge forbids: {}", who, what, r.denied->rule);
}

/// The decision when `request` got no answer; nullopt when it got one.
std::optional<decision> unanswered(const request_facts& request, const std::string& what) {
  const std::string message = what + ": " + describe(request);
  switch (request.outcome) {
  case request_outcome::answered:
    return std::nullopt;
  // Before hello no solve() has run: a runner that hangs there has no time limit to exceed.
  case request_outcome::timed_out:
    return decision{request.before_hello ? verdict::run_time_error : verdict::time_limit_exceeded, message};
  case request_outcome::runner_ended:
  case request_outcome::denied:
    return decision{verdict::run_time_error, message};
  case request_outcome::not_started:
    return decision{verdict::internal_error, message + judges_fault};
  // What a process running learner code says about itself is evidence against that process only: an
  // "error" answer or a garbled channel there is a run-time error. Only the judge's own runners (the
  // baseline's, the replaying one) can fail in the judge's name.
  case request_outcome::runner_failed:
  case request_outcome::out_of_step:
    if (request.learner_host_code)
      return decision{verdict::run_time_error, message + " (the process that ran your code reported it)"};
    return decision{verdict::internal_error, message + judges_fault};
  }
  return decision{verdict::internal_error, message + judges_fault};
}

std::string place_text(const judge_wire::sample_place& p) {
  return fmt::format("{} run {}", p.warmup ? "warmup" : "timed", p.sample);
}

/// The first wrong timed run, in words.
std::string first_wrong_run(const judge_wire::timing_answer& t) {
  if (const auto& m = t.first_mismatch)
    return fmt::format("{}: {} at index {}: expected {}, got {}", place_text(m->place), m->buffer, m->index,
                       judge_wire::float_text(m->expected), judge_wire::float_text(m->got));
  if (const auto& m = t.first_input_modification)
    return fmt::format("{}: solve() wrote into its input {} (first changed element at index {})", place_text(m->place),
                       m->buffer, m->index);
  return "";
}

} // namespace

std::string describe(const request_facts& r) {
  switch (r.outcome) {
  case request_outcome::answered:
    return "the runner answered";
  case request_outcome::timed_out:
    if (r.before_hello) return "the runner did not say hello within the time limit";
    if (r.limit_seconds > 0)
      return fmt::format("solve() did not return within the time limit of {:.3g} s", r.limit_seconds);
    return "solve() did not return within the time limit";
  case request_outcome::runner_ended:
    // SIGSYS is how the filter ends a runner whose own report could not run (SIGSYS blocked).
    if (r.exit && r.exit->signaled && r.exit->signal == SIGSYS) return denied_text(r);
    if (r.before_hello) return fmt::format("the runner {} before saying hello", ended(r.exit));
    return fmt::format("the runner {} before reporting a result{}", ended(r.exit),
                       exited_with_0(r) ? " (exit() inside solve()?)" : "");
  case request_outcome::not_started:
    return fmt::format("the runner could not start: {}", r.detail);
  case request_outcome::runner_failed:
    return fmt::format("the runner failed: {}", r.detail);
  case request_outcome::out_of_step:
    return fmt::format("the runner's answers are out of step with the judge's requests: {}", r.detail);
  case request_outcome::denied:
    return denied_text(r);
  }
  return "the runner stopped";
}

decision decide_case(const std::vector<call_facts>& calls, const std::optional<timing_facts>& timing) {
  using judge_wire::call_status;
  for (std::size_t k = 0; k < calls.size(); ++k) {
    const call_facts& c = calls[k];
    const std::string call = fmt::format("checked call {}", k + 1);
    if (auto d = unanswered(c.request, call)) return *d;
    if (!c.answer) return {verdict::internal_error, call + ": the runner's answer was lost" + judges_fault};
    const judge_wire::check_answer& a = *c.answer;
    const std::string error = a.error.value_or("");
    if (a.status == call_status::cuda_error) return {verdict::run_time_error, fmt::format("{}: {}", call, error)};
    if (a.status == call_status::banned_library || !a.banned_loaded.empty())
      return {verdict::run_time_error,
              fmt::format("{}: solve() loaded {}, which this problem bans (problem.yaml: banned_libraries)", call,
                          joined(a.banned_loaded))};
    if (a.status == call_status::stray_work)
      return {verdict::run_time_error,
              fmt::format("{}: {}", call, error.empty() ? "solve() left work running after it returned" : error)};
    if (c.reference_disagrees)
      return {verdict::internal_error,
              fmt::format("{}: the CPU and baseline references disagree{}", call, judges_fault)};
    if (!a.inputs_modified.empty())
      return {verdict::wrong_answer, fmt::format("{}: solve() wrote into its input {}; inputs are read-only", call,
                                                 inputs_text(a.inputs_modified))};
    if (!a.guard_violations.empty())
      return {verdict::wrong_answer,
              fmt::format("{}: solve() wrote outside its buffers: {}", call, guards_text(a.guard_violations))};
    if (c.output_missing)
      return {verdict::run_time_error,
              fmt::format("{}: the output of solve() could not be read back ({})", call, *c.output_missing)};
    if (c.wrong) return {verdict::wrong_answer, fmt::format("{}: {}", call, mismatch_text(*c.wrong)), c.wrong};
  }
  if (timing) {
    const std::string what = "timed runs";
    if (auto d = unanswered(timing->request, what)) return *d;
    if (!timing->answer) return {verdict::internal_error, what + ": the runner's answer was lost" + judges_fault};
    const judge_wire::timing_answer& t = *timing->answer;
    if (t.status != call_status::ok)
      return {verdict::run_time_error, fmt::format("{}: {}", what, t.error.value_or(judge_wire::to_string(t.status)))};
    // Writing into an input during a timed run is as wrong as during a checked one.
    const std::int64_t wrong_runs = t.mismatched_samples + t.inputs_modified_samples;
    if (wrong_runs > 0)
      return {verdict::wrong_answer, fmt::format("right on the checked calls but wrong on {} timed run(s) with fresh "
                                                 "inputs: {}",
                                                 wrong_runs, first_wrong_run(t))};
  }
  return {verdict::accepted, ""};
}

sanitizer_plan plan_sanitizer(const std::vector<call_facts>& calls, const std::optional<timing_facts>& timing) {
  using judge_wire::call_status;
  for (std::size_t k = 0; k < calls.size(); ++k) {
    if (!calls[k].answer) continue;
    const judge_wire::check_answer& a = *calls[k].answer;
    if (a.status == call_status::cuda_error || !a.guard_violations.empty()) return {{sanitizer_tool::memcheck}, k};
  }
  if (timing && timing->answer) {
    const judge_wire::timing_answer& t = *timing->answer;
    if (t.status == call_status::cuda_error) return {{sanitizer_tool::memcheck}, 0};
    if (t.mismatched_samples > 0) return {{sanitizer_tool::racecheck, sanitizer_tool::initcheck}, 0};
  }
  return {};
}

decision decide_solution(const std::vector<case_outcome>& cases) {
  bool any = false;
  for (const case_outcome& c : cases) {
    if (c.robustness) continue;
    any = true;
    if (c.d.v != verdict::accepted) return c.d;
  }
  if (!any) return {verdict::internal_error, "no test case was run"};
  return {verdict::accepted, ""};
}

} // namespace judge
