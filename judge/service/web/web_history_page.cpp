// One's own submissions, newest first; an instructor's list shows everyone's.
#include "judge/service/web/web_pages.hpp"

#include "judge/problem/case_set_version.hpp"

#include <fmt/format.h>

namespace judge::service {

std::string history_page(const account& who, const std::vector<submission>& submissions, bool everyone) {
  if (submissions.empty())
    return page(everyone ? "All submissions" : "Your submissions", who,
                "<p>No submissions yet. Pick a <a href=\"/problems\">problem</a>.</p>\n");
  std::string body = "<table class=\"data\">\n<thead><tr><th scope=\"col\">id</th>";
  if (everyone) body += "<th scope=\"col\">account</th>";
  body += "<th scope=\"col\">problem</th><th scope=\"col\">submitted</th><th scope=\"col\">state</th>"
          "<th scope=\"col\">verdict</th><th scope=\"col\">score</th><th scope=\"col\">cases</th></tr></thead>\n"
          "<tbody>\n";
  for (const submission& s : submissions) {
    std::string verdict_cell, score_cell, cases_cell;
    if (s.result) {
      cases_cell = html(case_set_label(s.result->value("case_set", "")));
      const std::string v = s.result->value("verdict", "");
      verdict_cell = fmt::format("<span class=\"verdict {0}\">{0}</span>", html(v));
      const double score = s.result->value("score", 0.0);
      if (score > 0) score_cell = fmt::format("{:.1f} {}", score, html(s.result->value("speed_unit", "")));
    }
    body += fmt::format("<tr><td><a href=\"/submissions/{0}\">{0}</a></td>", s.id);
    if (everyone) body += "<td>" + html(s.account) + "</td>";
    body += fmt::format("<td>{0}</td><td>{1}</td><td><span class=\"state {2}\">{2}</span></td><td>{3}</td>"
                        "<td class=\"num\">{4}</td><td>{5}{6}</td></tr>\n",
                        html(s.problem),
                        html(s.submitted_at) + (s.late_seconds > 0 ? " <span class=\"late\">late</span>" : ""),
                        state_name(s.now), verdict_cell, score_cell, cases_cell,
                        s.rejudge_of > 0 ? fmt::format(" (rejudge of {})", s.rejudge_of) : "");
  }
  return page(everyone ? "All submissions" : "Your submissions", who, body + "</tbody>\n</table>\n");
}

} // namespace judge::service
