#include "judge/sanitizer/sanitizer_text.hpp"
#include "judge/base/kernel_label.hpp"

#include <fmt/format.h>

namespace judge {

namespace {

std::string triple_text(const std::array<int, 3>& t) { return fmt::format("({},{},{})", t[0], t[1], t[2]); }

/// " in K at f.cu:19 by thread (x,y,z) of block (x,y,z)", each part only when known.
std::string where_text(const sanitizer_finding& f) {
  std::string out;
  if (!f.kernel.empty()) out += " in " + kernel_label(f.kernel);
  if (!f.at.file.empty()) out += fmt::format(" at {}:{}", f.at.file, f.at.line);
  if (f.thread) out += " by thread " + triple_text(*f.thread);
  if (f.block) out += (f.thread ? " of block " : " in block ") + triple_text(*f.block);
  return out;
}

const char* space_words(memory_space s) {
  switch (s) {
  case memory_space::global:
    return "global ";
  case memory_space::shared:
    return "shared ";
  case memory_space::local:
    return "local ";
  case memory_space::unknown:
    break;
  }
  return "";
}

const char* access_words(access_kind a) {
  switch (a) {
  case access_kind::read:
    return "read";
  case access_kind::write:
    return "write";
  case access_kind::atomic:
    return "atomic";
  case access_kind::unknown:
    break;
  }
  return "access";
}

/// ": just past the end of C (4096 bytes)", or "" when the address is not placed.
std::string buffer_text(const sanitizer_finding& f) {
  const std::string size = fmt::format("{} bytes", f.buffer_bytes);
  if (f.buffer.empty()) {
    if (f.relation == buffer_relation::inside && f.buffer_bytes > 0)
      return fmt::format(": inside an allocation of {} that is none of the judge's buffers", size);
    if (f.relation != buffer_relation::unknown && f.buffer_bytes > 0)
      return fmt::format(": {} bytes {} an allocation of {} that is none of the judge's buffers", f.distance,
                         f.relation == buffer_relation::before ? "before" : "past the end of", size);
    if (f.address && f.kind == sanitizer_error_kind::invalid_access)
      return fmt::format(": address {:#x}, far from every buffer solve() was given (a wild or host pointer)",
                         *f.address);
    return "";
  }
  switch (f.relation) {
  case buffer_relation::after:
    return f.distance == 0 ? fmt::format(": just past the end of {} ({})", f.buffer, size)
                           : fmt::format(": {} bytes past the end of {} ({})", f.distance, f.buffer, size);
  case buffer_relation::before:
    return fmt::format(": {} bytes before the start of {} ({})", f.distance, f.buffer, size);
  case buffer_relation::inside:
    return fmt::format(": byte {} of {} ({})", f.distance, f.buffer, size);
  case buffer_relation::unknown:
    break;
  }
  return "";
}

} // namespace

std::string finding_text(const sanitizer_finding& f) {
  switch (f.kind) {
  case sanitizer_error_kind::invalid_access:
    return fmt::format("invalid {}{} of {} bytes{}{}", space_words(f.space), access_words(f.access), f.size,
                       where_text(f), buffer_text(f));
  case sanitizer_error_kind::uninitialised_read:
    return fmt::format("read of {} bytes of {}memory nothing had written{}{}", f.size, space_words(f.space),
                       where_text(f), buffer_text(f));
  case sanitizer_error_kind::shared_race: {
    std::string text = "shared-memory race";
    if (!f.kernel.empty()) text += " in " + kernel_label(f.kernel);
    if (f.block) text += " in block " + triple_text(*f.block);
    const auto side = [](access_kind a, const source_line& at) {
      return at.file.empty() ? std::string(access_words(a))
                             : fmt::format("{} at {}:{}", access_words(a), at.file, at.line);
    };
    text += fmt::format(": a {} and a {} by different threads with no barrier (__syncthreads()) between them",
                        side(f.access, f.at), side(f.other_access, f.other_at));
    if (f.hazards > 0) text += fmt::format(" ({} hazards)", f.hazards);
    return text;
  }
  case sanitizer_error_kind::cuda_api_error:
    return fmt::format("{} returned {}", f.api_call, f.api_error);
  case sanitizer_error_kind::hardware_exception:
  case sanitizer_error_kind::other:
    break;
  }
  return f.headline + where_text(f) + buffer_text(f);
}

std::string run_summary(const sanitizer_run& r) {
  const std::string tool = tool_name(r.tool);
  switch (r.state) {
  case sanitizer_state::not_available:
    return fmt::format("{}: not run ({})", tool, r.detail);
  case sanitizer_state::failed:
    return fmt::format("{}, {:.1f} s: could not check the case: {}", tool, r.seconds, r.detail);
  case sanitizer_state::timed_out:
    return fmt::format("{}, {:.1f} s: {}; {}", tool, r.seconds, r.detail,
                       r.findings.empty() ? "nothing found before that" : "found before that:");
  case sanitizer_state::ran:
    break;
  }
  if (r.findings.empty() && r.errors <= 0) return fmt::format("{}, {:.1f} s: nothing found", tool, r.seconds);
  const int count = r.errors > 0 ? r.errors : static_cast<int>(r.findings.size());
  const std::size_t shown = r.findings.size();
  return fmt::format("{}, {:.1f} s: {} {}{}", tool, r.seconds, count,
                     r.tool == sanitizer_tool::racecheck ? (count == 1 ? "hazard" : "hazards")
                                                         : (count == 1 ? "error" : "errors"),
                     static_cast<std::size_t>(count) > shown ? fmt::format(" (the first {} shown)", shown) : "");
}

std::string sanitizer_text(const std::string& case_name, const std::vector<sanitizer_run>& runs) {
  if (runs.empty()) return "";
  std::string out =
      fmt::format("compute-sanitizer on {} (explains; never changes the verdict or the time):\n", case_name);
  for (const sanitizer_run& r : runs) {
    out += "  " + run_summary(r) + "\n";
    // Once a kernel has faulted, every later CUDA call returns the same sticky error: on the H200 one
    // write past C was followed by five such lines. After a fault they are counted, not listed.
    bool faulted = false;
    int echoes = 0;
    for (const sanitizer_finding& f : r.findings) {
      const bool api = f.kind == sanitizer_error_kind::cuda_api_error;
      if (api && faulted) {
        ++echoes;
        continue;
      }
      if (api) faulted = true; // a failed call before any fault is shown: it is what solve() was told
      if (f.kind == sanitizer_error_kind::invalid_access || f.kind == sanitizer_error_kind::hardware_exception)
        faulted = true;
      out += "    - " + finding_text(f) + "\n";
    }
    if (echoes > 0)
      out += fmt::format("    - and {} later CUDA call(s) also failed, as every call does once a kernel has faulted\n",
                         echoes);
  }
  return out;
}

std::string explanation_state_text(explanation_state state) {
  switch (state) {
  case explanation_state::none:
    return "";
  case explanation_state::pending:
    return "pending";
  case explanation_state::done:
    return "done";
  case explanation_state::over_budget:
    return "over budget";
  case explanation_state::failed:
    return "failed";
  }
  return "";
}

std::string explanation_text(const sanitizer_explanation& e, const std::vector<sanitizer_run>& runs) {
  if (e.state == explanation_state::pending) {
    std::string tools;
    for (const sanitizer_tool t : e.tools) tools += (tools.empty() ? "" : ", then ") + std::string(tool_name(t));
    return fmt::format("compute-sanitizer on {}: pending ({}, at most {:.0f} s{}): it explains the failure after the "
                       "verdict, which it never changes\n",
                       e.case_name, tools, e.seconds_per_tool, e.tools.size() > 1 ? " each" : "");
  }
  if (e.state == explanation_state::failed && runs.empty())
    return fmt::format("compute-sanitizer on {}: could not run: {}\n", e.case_name, e.detail);
  return "";
}

} // namespace judge
