#include "judge/report/report_terminal.hpp"

#include "judge/base/environment.hpp"
#include "judge/base/utc_time.hpp"
#include "judge/report/kernel_text.hpp"
#include "judge/report/mismatch_text.hpp"
#include "judge/report/not_run_text.hpp"
#include "judge/report/plausibility_text.hpp"
#include "judge/report/robustness_text.hpp"
#include "judge/report/cases_not_run_text.hpp"
#include "judge/report/sandbox_text.hpp"
#include "judge/sanitizer/sanitizer_text.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <unistd.h>
#include <utility>
#include <vector>

namespace judge {

terminal_style terminal_style::for_stream(std::FILE* stream) {
  terminal_style s;
  s.colour = ::isatty(::fileno(stream)) && !non_empty_env("NO_COLOR"); // no-color.org: set and not empty
  return s;
}

std::string coloured_verdict(verdict v, const terminal_style& style) {
  const std::string name = short_name(v);
  if (!style.colour) return name;
  const char* colour = v == verdict::accepted         ? "\033[1;32m"
                       : v == verdict::internal_error ? "\033[1;35m"
                                                      : "\033[1;31m";
  return fmt::format("{}{}\033[0m", colour, name);
}

namespace {
std::string padded_verdict(verdict v, const terminal_style& style, int width) {
  const std::string name = short_name(v);
  return coloured_verdict(v, style) +
         std::string(static_cast<std::size_t>(std::max(0, width - static_cast<int>(name.size()))), ' ');
}

std::string indent(const std::string& text, const std::string& prefix) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    const auto end = text.find('\n', start);
    out += prefix + text.substr(start, end == std::string::npos ? std::string::npos : end - start) + "\n";
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}
} // namespace

std::string render_heading(const std::string& problem, const device_info& device, const std::string& timing_mode) {
  return fmt::format("{} on {} ({} SMs, SM clock up to {:.0f} MHz, compute capability {}); timing: {}\n", problem,
                     device.name, device.sms, device.clock_max_mhz, device.cc, timing_mode);
}

std::string render_baseline(const std::string& label, const std::string& unit,
                            const std::vector<std::pair<std::string, std::pair<double, double>>>& case_ms_speed,
                            const std::string& note) {
  std::string out =
      note.empty() ? fmt::format("baseline: {}\n", label) : fmt::format("baseline: {} ({})\n", label, note);
  for (const auto& [name, ms_speed] : case_ms_speed)
    out += fmt::format("  {:<28} {:>11} {:>10.1f} {}\n", name, time_text(ms_speed.first), ms_speed.second, unit);
  return out;
}

std::string baseline_age_text(long long timed_at) {
  const long long age = static_cast<long long>(std::time(nullptr)) - timed_at;
  const std::string ago = age < 60 ? fmt::format("{} s ago", std::max(0LL, age)) : fmt::format("{} min ago", age / 60);
  return fmt::format("timed {} on this GPU, {}; --rebaseline times it now", utc_text(timed_at), ago);
}

std::string render_solution(const solution_result& r, const std::string& baseline_label, const terminal_style& style,
                            bool explain) {
  if (r.compiled_only) {
    const std::string label = style.colour ? fmt::format("\033[1;33m{}\033[0m", not_run_short) : not_run_short;
    // What ptxas said needs no GPU: a learner without one still sees registers, shared memory, spills.
    return fmt::format("\n{}  {}\n  | {}\n", r.path, label, not_run_text) + kernels_text(r, explain);
  }
  std::string out = fmt::format("\n{}  {}", r.path, coloured_verdict(r.v, style));
  if (r.v == verdict::accepted && r.score > 0)
    out += fmt::format("  score {:.1f} {}{}", r.score, r.speed_unit, r.implausible ? " (not ranked: implausible)" : "");
  out += "\n";
  if (r.v == verdict::compile_error || r.cases.empty()) {
    if (!r.message.empty()) out += indent(r.message, "  | ");
    return out + kernels_text(r, explain);
  }
  out +=
      fmt::format("  {:<28} {:<16} {:<4} {:>11} {:>10} {:>9} {:>8} {:>6} {:>7} {:>5}\n", "case", "shape", "", "median",
                  r.speed_unit, fmt::format("% {}", baseline_label.substr(0, 7)), "% peak", "noise", "±median", "n");
  for (const case_result& c : r.cases) {
    const std::string name = c.hidden ? c.name : c.name + "*";
    if (c.timing) {
      out += fmt::format("  {:<28} {:<16} {} {:>11} {:>10.1f} {:>9} {:>8} {:>5.1f}% {:>7} {:>5}\n", name, c.shape,
                         padded_verdict(c.v, style, 4), time_text(c.timing->median_ms), c.speed,
                         c.baseline_speed > 0 ? fmt::format("{:.1f}%", c.pct_of_baseline) : "-",
                         c.pct_of_peak > 0 ? fmt::format("{:.1f}%", c.pct_of_peak) : "-", c.timing->noise * 100.0,
                         c.timing->precision > 0 ? fmt::format("{:.2f}%", c.timing->precision * 100.0) : "-",
                         c.timing->samples);
    } else {
      out += fmt::format("  {:<28} {:<16} {}\n", name, c.shape, padded_verdict(c.v, style, 4));
    }
  }
  if (!r.case_set.empty()) out += fmt::format("  graded on case set {}\n", r.case_set);
  // A note several cases share (a solution's timed cases not timed, and why) is said once, naming them all.
  std::vector<std::pair<std::string, std::vector<std::string>>> notes; // feedback, its cases, in case order
  for (const case_result& c : r.cases) {
    if (c.feedback.empty()) continue;
    const auto same = std::find_if(notes.begin(), notes.end(), [&](const auto& n) { return n.first == c.feedback; });
    if (same == notes.end())
      notes.push_back({c.feedback, {c.name}});
    else
      same->second.push_back(c.name);
  }
  for (const auto& [feedback, names] : notes)
    out += indent(fmt::format("note on {}: {}", fmt::join(names, ", "), feedback), "  ");
  for (const case_result& c : r.cases)
    if (c.implausible)
      out += indent(fmt::format("implausible time on {}: {}", c.name, implausible_text(*c.implausible)), "  ! ");
  out += render_explanation(r);
  for (const case_result& c : r.robustness) out += indent(robustness_line(c), "  ");
  if (!r.cases_not_run.empty()) out += indent(cases_not_run_line(r), "  ");
  out += kernels_text(r, explain);
  if (r.v != verdict::accepted && !r.message.empty()) out += indent(r.message, "  ! ");
  if (const auto note = leetgpu_note(r)) out += indent(*note, "  ! ");
  if (!r.learner_output.empty() && r.v != verdict::accepted) {
    const std::string excerpt = r.learner_output.substr(0, 1500);
    out += "  output of your program (start):\n" + indent(excerpt, "  > ");
  }
  return out;
}

std::string render_explanation(const solution_result& r) {
  std::string out;
  for (const case_result& c : r.cases) out += indent(sanitizer_text(c.name, c.sanitizer), "  ");
  for (const case_result& c : r.cases)
    if (c.name == r.sanitizer.case_name) out += indent(explanation_text(r.sanitizer, c.sanitizer), "  ");
  return out;
}

std::string render_no_device_note(const std::vector<solution_result>& results, const std::string& reason) {
  std::size_t compiled = 0;
  for (const auto& r : results) compiled += r.compiled_only ? 1 : 0;
  const std::string why = reason.empty() ? "" : fmt::format(" ({})", reason);
  if (compiled == 0)
    return fmt::format("judge: no CUDA device on this machine{}; no solution compiled, so there was "
                       "nothing to run\n",
                       why);
  return fmt::format("judge: no CUDA device on this machine{}: {} solution(s) compiled but not run; "
                     "run the judge on a machine with an NVIDIA GPU for their verdicts, or grade on your class's "
                     "server: bin/judge submit <problem> <file> --server URL\n",
                     why, compiled);
}

std::string render_summary(const std::vector<solution_result>& results, const terminal_style& style) {
  std::map<verdict, int> counts;
  const solution_result* fastest = nullptr;
  std::map<std::string, int> failures_by_case;
  int not_run = 0;
  for (const auto& r : results) {
    if (r.compiled_only) {
      ++not_run;
      continue;
    }
    ++counts[r.v];
    if (r.v == verdict::accepted && r.score > 0 && (!fastest || r.score > fastest->score)) fastest = &r;
    for (const auto& c : r.cases)
      if (c.v != verdict::accepted) {
        ++failures_by_case[c.name];
        break;
      }
  }
  std::string out = fmt::format("\n{} solution(s):", results.size());
  for (const auto& [v, n] : counts) out += fmt::format(" {} {}", n, coloured_verdict(v, style));
  if (not_run > 0) out += fmt::format(" {} compiled, not run (no CUDA device)", not_run);
  out += "\n";
  if (fastest)
    out += fmt::format("fastest accepted: {} ({:.1f} {})\n", fastest->path, fastest->score, fastest->speed_unit);
  if (!failures_by_case.empty()) {
    out += "first failing case:";
    for (const auto& [name, n] : failures_by_case) out += fmt::format(" {} ({})", name, n);
    out += "\n";
  }
  // Said once, at the end, because it changes what the verdicts can be trusted for: outside the
  // sandbox a solution can reach the network and read the judge's files.
  std::map<std::pair<sandbox_mode, std::string>, int> unsandboxed;
  for (const auto& r : results)
    if (r.sandbox.mode == sandbox_mode::off || r.sandbox.mode == sandbox_mode::unavailable)
      ++unsandboxed[{r.sandbox.mode, r.sandbox.reason}];
  for (const auto& [state, n] : unsandboxed) {
    const auto& [mode, reason] = state;
    out += fmt::format("sandbox {} for {} solution(s): they ran with the judge's user, network and files\n",
                       mode == sandbox_mode::off ? "off (--no-sandbox)" : sandbox_text({mode, reason}), n);
  }
  // In the sandbox, but not every layer of it: which were missing, and why (--contest refuses this).
  std::map<std::string, int> partly;
  for (const auto& r : results)
    if (r.sandbox.mode == sandbox_mode::on && !r.sandbox.layers.all_on())
      ++partly[missing_layers_text(r.sandbox.layers)];
  for (const auto& [missing, n] : partly)
    out += fmt::format("sandbox on for {} solution(s), but without {}\n", n, missing);
  // And when every layer was in force, so that a summary always says whether the limits were on.
  int whole = 0;
  for (const auto& r : results)
    if (r.sandbox.mode == sandbox_mode::on && r.sandbox.layers.all_on()) ++whole;
  if (whole > 0) out += fmt::format("sandbox on with cgroup limits for {} solution(s)\n", whole);
  return out;
}

std::string skip_reason_text(skip_reason reason) {
  switch (reason) {
  case skip_reason::not_cu:
    return "not a .cu file";
  case skip_reason::upper_case_cu:
    return "rename it to .cu (lower case): nvcc takes only .cu as CUDA source";
  case skip_reason::no_cu_files:
    return fmt::format("no .cu file in this folder or up to {} folders below it", max_student_depth);
  case skip_reason::too_deep:
    return fmt::format("more than {} folders below the student's folder; move it up", max_student_depth);
  case skip_reason::broken_link:
    return "a broken symbolic link (what it points to does not exist)";
  case skip_reason::link_loop:
    return "a symbolic link loop (it leads back to itself)";
  case skip_reason::folder_link:
    return "a symbolic link to a folder inside a student's folder; not followed";
  case skip_reason::not_a_file:
    return "neither a file nor a folder";
  case skip_reason::unreadable:
    return "cannot be read (permissions?)";
  case skip_reason::shipped_example:
    return "the example shipped with the judge, left out beside your own solutions; name it to grade it";
  }
  return "skipped";
}

std::string render_skipped(const std::vector<skipped_entry>& skipped) {
  if (skipped.empty()) return "";
  std::string out = fmt::format("skipped {} entr{} (not graded):\n", skipped.size(), skipped.size() == 1 ? "y" : "ies");
  for (const auto& s : skipped) out += fmt::format("  {}: {}\n", s.path.string(), skip_reason_text(s.reason));
  return out;
}

std::string render_not_graded(const std::vector<std::string>& not_graded) {
  if (not_graded.empty()) return "";
  std::string out = fmt::format("not graded, interrupted ({}; nothing recorded for them):", not_graded.size());
  for (const auto& path : not_graded) out += " " + path;
  return out + "\n";
}

} // namespace judge
