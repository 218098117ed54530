#include "verdict.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstring>

namespace judge {

namespace {

// The runner fills outputs with one of two poison values before each call; seeing one back means the
// element was never written, which is the most useful thing a learner can be told about it.
bool is_poison(float got) {
  std::uint32_t bits;
  std::memcpy(&bits, &got, sizeof bits);
  return bits == 0x7FC0DEADu || got == -1.7e38f;
}

std::string where(const mismatch& m) {
  if (m.first_coords.size() == 2)
    return fmt::format("index {} (row {}, col {})", m.first_index, m.first_coords[0], m.first_coords[1]);
  if (m.first_coords.size() > 2) return fmt::format("index {} ({})", m.first_index, fmt::join(m.first_coords, ", "));
  return fmt::format("index {}", m.first_index);
}

std::string describe(const mismatch& m) {
  std::string got = std::isnan(m.got) ? "NaN" : fmt::format("{:.9g}", m.got);
  if (is_poison(m.got)) got += " (the poison value: this element was never written)";
  return fmt::format("{} of {} elements of {} are wrong (against the {}); first at {}: expected {:.9g}, got {}",
                     m.count, m.total, m.buffer, m.against, where(m), m.expected, got);
}

std::string joined(const std::vector<std::string>& items) { return fmt::format("{}", fmt::join(items, "; ")); }

} // namespace

std::string describe_mismatch(const mismatch& m) { return describe(m); }

decision decide_case(const std::vector<call_facts>& calls, const std::optional<timing_facts>& timing) {
  for (std::size_t k = 0; k < calls.size(); ++k) {
    const call_facts& c = calls[k];
    const std::string call = fmt::format("checked call {}", k + 1);
    if (c.timed_out) return {verdict::time_limit_exceeded, fmt::format("{}: solve() did not return within the time limit", call)};
    if (c.runner_died || !c.reported)
      return {verdict::run_time_error,
              fmt::format("{}: the runner {} before reporting a result{}", call, c.death.empty() ? "stopped" : c.death,
                          c.death.find("code 0") != std::string::npos ? " (exit() inside solve()?)" : "")};
    if (c.runner_status == "cuda_error") return {verdict::run_time_error, fmt::format("{}: {}", call, c.runner_error)};
    if (c.runner_status == "banned_library" || !c.banned_loaded.empty())
      return {verdict::run_time_error,
              fmt::format("{}: solve() loaded {}, which this problem bans (problem.yaml: banned_libraries)", call,
                          joined(c.banned_loaded))};
    if (c.runner_status == "stray_work")
      return {verdict::run_time_error, fmt::format("{}: {}", call, c.runner_error.empty() ? "solve() left work running after it returned" : c.runner_error)};
    if (c.runner_status != "ok")
      return {verdict::internal_error, fmt::format("{}: the runner reported an unknown status '{}'", call, c.runner_status)};
    if (c.reference_disagrees)
      return {verdict::internal_error, fmt::format("{}: the CPU and baseline references disagree; this is the judge's fault, not yours", call)};
    if (!c.inputs_modified.empty())
      return {verdict::wrong_answer, fmt::format("{}: solve() wrote into its input {}; inputs are read-only", call, joined(c.inputs_modified))};
    if (!c.guard_violations.empty())
      return {verdict::wrong_answer, fmt::format("{}: solve() wrote outside its buffers: {}", call, joined(c.guard_violations))};
    if (c.output_missing)
      return {verdict::run_time_error, fmt::format("{}: the output of solve() could not be read back ({})", call, c.runner_error)};
    if (c.wrong) return {verdict::wrong_answer, fmt::format("{}: {}", call, describe(*c.wrong))};
  }
  if (timing) {
    const timing_facts& t = *timing;
    if (t.timed_out) return {verdict::time_limit_exceeded, "timed runs: solve() did not return within the time limit"};
    if (t.runner_died || !t.reported)
      return {verdict::run_time_error,
              fmt::format("timed runs: the runner {} before reporting", t.death.empty() ? "stopped" : t.death)};
    if (t.status != "ok") return {verdict::run_time_error, fmt::format("timed runs: {}", t.error.empty() ? t.status : t.error)};
    if (t.mismatched_samples > 0)
      return {verdict::wrong_answer, fmt::format("right on the checked calls but wrong on {} timed run(s) with fresh inputs: {}",
                                                 t.mismatched_samples, t.first_mismatch)};
  }
  return {verdict::accepted, ""};
}

decision decide_solution(const std::vector<decision>& cases) {
  for (const decision& d : cases)
    if (d.v != verdict::accepted) return d;
  if (cases.empty()) return {verdict::internal_error, "no test case was run"};
  return {verdict::accepted, ""};
}

} // namespace judge
