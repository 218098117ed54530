// A submission's page: its state while queued and graded, then the result with the same facts the
// terminal report shows (report_terminal.cpp): the verdict line, the compiler's messages, one row per
// case with the same columns, the notes, the failure's message, the sanitizer's findings (or that they
// are still to come), and the kernels with their hints (as `--explain` shows them).
#include "judge/service/web/web_pages.hpp"

#include "judge/course/course_time.hpp"
#include "judge/problem/case_set_version.hpp"
#include "judge/report/cases_not_run_text.hpp"
#include "judge/report/kernel_text.hpp"
#include "judge/report/mismatch_text.hpp"
#include "judge/report/not_run_text.hpp"
#include "judge/report/plausibility_text.hpp"
#include "judge/report/report_terminal.hpp"
#include "judge/report/robustness_text.hpp"
#include "judge/sanitizer/sanitizer_json.hpp"
#include "judge/sanitizer/sanitizer_text.hpp"

#include <fmt/format.h>

namespace judge::service {

namespace {
std::string verdict_span(const std::string& name) {
  return fmt::format("<span class=\"verdict {0}\">{0}</span>", html(name));
}

std::string case_row(const case_result& c) {
  std::string row = fmt::format("<tr><th scope=\"row\">{}{}</th><td>{}</td><td>{}</td>", html(c.name),
                                c.hidden ? "" : " <span class=\"hint\">(sample)</span>", html(c.shape),
                                verdict_span(short_name(c.v)));
  if (!c.timing) return row + "<td></td><td></td><td></td><td></td><td></td><td></td><td></td></tr>\n";
  const timing_summary& t = *c.timing;
  row += fmt::format("<td class=\"num\">{}</td><td class=\"num\">{:.1f}</td>", time_text(t.median_ms), c.speed);
  row += c.baseline_speed > 0 ? fmt::format("<td class=\"num\">{:.1f}%</td>", c.pct_of_baseline)
                              : "<td class=\"num\">-</td>";
  row += c.pct_of_peak > 0 ? fmt::format("<td class=\"num\">{:.1f}%</td>", c.pct_of_peak) : "<td class=\"num\">-</td>";
  row += fmt::format("<td class=\"num\">{:.1f}%</td>", t.noise * 100.0);
  row +=
      t.precision > 0 ? fmt::format("<td class=\"num\">{:.2f}%</td>", t.precision * 100.0) : "<td class=\"num\">-</td>";
  return row + fmt::format("<td class=\"num\">{}</td></tr>\n", t.samples);
}

/// A file with its line numbers, as the compiler's messages cite them (`a.cu(12): error`): one list
/// item per line, numbered by the list itself, so that copying the code copies no numbers.
std::string numbered_source(const std::string& text) {
  std::string out = "<ol class=\"source\">";
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    out += "<li><code>" + html(text.substr(start, end - start)) + "</code></li>";
    start = end + 1;
  }
  return out + "</ol>\n";
}

std::string facts_row(const char* label, const std::string& value, const char* id = nullptr) {
  const std::string shown = value.empty() ? "–" : html(value);
  return id ? fmt::format("<dt>{}</dt><dd id=\"{}\">{}</dd>\n", label, id, shown)
            : fmt::format("<dt>{}</dt><dd>{}</dd>\n", label, shown);
}
} // namespace

std::string result_html(const solution_result& r, const std::string& baseline_label) {
  if (r.compiled_only) {
    // What ptxas said needs no GPU: the terminal shows it for a solution not run, and so does the page.
    std::string out = fmt::format("<p>{} {}</p>\n", verdict_span(not_run_short), html(not_run_text));
    if (const std::string kernels = kernels_text(r, true); !kernels.empty())
      out += "<h3>Kernels</h3>\n<pre class=\"explain\">" + html(kernels) + "</pre>\n";
    return out;
  }
  std::string out = "<p class=\"verdict-line\">Verdict: " + verdict_span(short_name(r.v));
  if (r.v == verdict::accepted && r.score > 0)
    out += fmt::format(" · score <strong>{:.1f} {}</strong>{}", r.score, html(r.speed_unit),
                       r.implausible ? " (not ranked: implausible)" : "");
  out += "</p>\n";
  if (r.v == verdict::compile_error || r.cases.empty()) {
    if (!r.message.empty()) out += "<h3>Compiler messages</h3>\n<pre class=\"compile\">" + html(r.message) + "</pre>\n";
    return out;
  }
  out += "<table class=\"data cases\">\n<caption class=\"hint\">Cases marked (sample) are in the problem's "
         "cases.yaml, to reproduce.</caption>\n<thead><tr>";
  for (const std::string& h :
       {std::string("case"), std::string("shape"), std::string("verdict"), std::string("median"), r.speed_unit,
        "% " + baseline_label, std::string("% peak"), std::string("noise"), std::string("±median"), std::string("n")})
    out += "<th scope=\"col\">" + html(h) + "</th>";
  out += "</tr></thead>\n<tbody>\n";
  for (const case_result& c : r.cases) out += case_row(c);
  out += "</tbody>\n</table>\n";
  for (const case_result& c : r.cases)
    if (!c.feedback.empty())
      out += fmt::format("<p class=\"notice\">Note on {}: {}</p>\n", html(c.name), html(c.feedback));
  for (const case_result& c : r.cases)
    if (c.implausible)
      out += fmt::format("<p class=\"error\">Implausible time on {}: {}</p>\n", html(c.name),
                         html(implausible_text(*c.implausible)));
  for (const case_result& c : r.robustness)
    out += fmt::format("<p class=\"notice\">{}</p>\n", html(robustness_line(c)));
  if (!r.cases_not_run.empty()) out += fmt::format("<p class=\"notice\">{}</p>\n", html(cases_not_run_line(r)));
  if (r.v != verdict::accepted && !r.message.empty())
    out += "<h3>What went wrong</h3>\n<pre class=\"failure\">" + html(r.message) + "</pre>\n";
  if (const auto note = leetgpu_note(r)) out += "<p class=\"notice\">" + html(*note) + "</p>\n";
  // The same explanations as the terminal's --explain block and its sanitizer block; an explanation still
  // to come says so (the page follows it until it is there).
  for (const case_result& c : r.cases) {
    if (const std::string found = sanitizer_text(c.name, c.sanitizer); !found.empty())
      out += "<h3>compute-sanitizer on " + html(c.name) + "</h3>\n<pre class=\"failure\">" + html(found) + "</pre>\n";
    if (c.name != r.sanitizer.case_name) continue;
    if (const std::string said = explanation_text(r.sanitizer, c.sanitizer); !said.empty())
      out += "<p class=\"notice\" id=\"sanitizer-note\">" + html(said) + "</p>\n";
  }
  if (const std::string kernels = kernels_text(r, true); !kernels.empty())
    out += "<h3>Kernels and hints</h3>\n<pre class=\"explain\">" + html(kernels) + "</pre>\n";
  return out;
}

std::string submission_page(const account& who, const submission& s, const std::optional<solution_result>& result,
                            const std::string& baseline_label) {
  const std::string now = state_name(s.now);
  // What the page shows of the explanation is the shown result's (a contest view may leave it out).
  const explanation_state explanation = result ? result->sanitizer.state : explanation_state::none;
  std::string body = fmt::format("<div data-submission=\"{}\" data-state=\"{}\" data-sanitizer=\"{}\">\n", s.id, now,
                                 explanation_state_name(explanation));
  body += "<dl class=\"facts\">\n";
  body += fmt::format(
      "<dt>problem</dt><dd><a href=\"/problems/{0}\">{0}</a> · <a href=\"/board/{0}\">leaderboard</a></dd>\n",
      html(s.problem));
  body += facts_row("account", s.account);
  body += fmt::format("<dt>state</dt><dd><span id=\"state\" class=\"state {0}\" aria-live=\"polite\">{0}</span></dd>\n",
                      html(now));
  body += facts_row("submitted", s.submitted_at);
  if (!s.assignment.empty())
    body += facts_row("assignment", s.late_seconds > 0 ? s.assignment + ": late by " + course::late_text(s.late_seconds)
                                                       : s.assignment + ": in time");
  body += facts_row("started", s.started_at, "started");
  body += facts_row("finished", s.finished_at);
  body += facts_row("GPU", s.gpu, "gpu");
  if (s.rejudge_of > 0)
    body += fmt::format("<dt>rejudge of</dt><dd><a href=\"/submissions/{0}\">submission {0}</a></dd>\n", s.rejudge_of);
  if (result) body += facts_row("cases", case_set_label(result->case_set));
  if (explanation != explanation_state::none)
    body += facts_row("sanitizer", explanation_state_text(explanation), "sanitizer");
  body += "</dl>\n";
  if (s.now == state::failed)
    body += fmt::format("<p class=\"error\" role=\"alert\">The judge could not grade this submission (not your "
                        "solution's fault): {}</p>\n",
                        html(s.error));
  if (result)
    body += "<h2>Result</h2>\n" + result_html(*result, baseline_label);
  else if (s.now != state::failed)
    body += "<p class=\"notice\">This page follows the grading and shows the result when it is done.</p>\n";
  if (!s.files.empty()) {
    body += "<h2>Files</h2>\n";
    for (const source_file& f : s.files)
      body += fmt::format("<details><summary>{}</summary>\n{}</details>\n", html(f.name), numbered_source(f.content));
  }
  body += "</div>\n";
  return page(fmt::format("Submission {}: {}", s.id, s.problem), who, body, {"submission.js"});
}

} // namespace judge::service
