// The instructors' dashboards: every problem with the server's whole queue, and one problem's verdicts,
// its part of the queue and every submission made to it. Both kept live by board.js.
#include "judge/service/web/web_pages.hpp"

#include "judge/course/course_time.hpp"
#include "judge/problem/case_set_version.hpp"

#include <fmt/format.h>

#include <map>

namespace judge::service {

namespace {
/// "40 s", "2 min", "1 day 3 h": a span as the course's pages write one (course/course_time.hpp).
std::string span(std::int64_t seconds) { return course::late_text(seconds); }

/// Where a submission not yet done or failed stands, in words.
std::string place_text(const waiting_submission& w) {
  const line_place& p = w.place;
  if (p.position == 0)
    return fmt::format("{} ({}) for {}", state_name(p.s.now), p.s.worker.empty() ? "a worker" : p.s.worker,
                       span(w.held_seconds));
  return fmt::format("{} of {} waiting for {}", p.position, p.waiting,
                     p.s.now == state::compiled ? "a GPU" : "a compile thread");
}

std::string live_note() { return "Updates itself every 5 seconds (last: <span id=\"updated\">at load</span>)."; }

/// The queue's rows: each unfinished submission, where it stands, how long since it was submitted.
std::string line_table(const std::vector<waiting_submission>& line, bool with_problem) {
  std::string out = "<table class=\"data\" id=\"queue\">\n<thead><tr><th scope=\"col\">id</th>"
                    "<th scope=\"col\">account</th>";
  if (with_problem) out += "<th scope=\"col\">problem</th>";
  out += "<th scope=\"col\">state</th><th scope=\"col\">where it stands</th><th scope=\"col\">submitted</th>"
         "<th scope=\"col\">age</th><th scope=\"col\">note</th></tr></thead>\n<tbody>\n";
  for (const waiting_submission& w : line) {
    const submission& s = w.place.s;
    out += fmt::format("<tr><td><a href=\"/submissions/{0}\">{0}</a></td><td>{1}</td>", s.id, html(s.account));
    if (with_problem) out += fmt::format("<td><a href=\"/dashboard/{0}\">{0}</a></td>", html(s.problem));
    out += fmt::format("<td><span class=\"state {0}\">{0}</span></td><td>{1}</td><td>{2}</td>"
                       "<td class=\"num\">{3}</td><td>{4}</td></tr>\n",
                       state_name(s.now), html(place_text(w)), html(s.submitted_at), html(span(w.age_seconds)),
                       html(s.note));
  }
  return out + "</tbody>\n</table>\n";
}

std::string verdict_table(const problem_dashboard& d) {
  std::string out = "<table class=\"data\" id=\"verdicts\">\n<thead><tr><th scope=\"col\">submissions</th>";
  for (const char* o : outcome_names)
    out += fmt::format("<th scope=\"col\"><span class=\"verdict {0}\">{0}</span></th>", o);
  out += "</tr></thead>\n<tbody>\n";
  auto row = [&](const std::string& label, const outcome_counts& counts) {
    std::string r = "<tr><th scope=\"row\">" + html(label) + "</th>";
    for (std::size_t n : counts) r += fmt::format("<td class=\"num\">{}</td>", n);
    return r + "</tr>\n";
  };
  std::size_t every = 0;
  for (std::size_t n : d.all) every += n;
  out += row(fmt::format("each account's latest ({} account{})", d.accounts, d.accounts == 1 ? "" : "s"), d.latest);
  out += row(fmt::format("every submission ({})", every), d.all);
  return out + "</tbody>\n</table>\n";
}

std::string submissions_table(const std::vector<submission>& submissions) {
  std::string out = "<table class=\"data\" id=\"submissions\">\n<thead><tr><th scope=\"col\">id</th>"
                    "<th scope=\"col\">account</th><th scope=\"col\">submitted</th><th scope=\"col\">state</th>"
                    "<th scope=\"col\">verdict</th><th scope=\"col\">score</th><th scope=\"col\">cases</th>"
                    "<th scope=\"col\">notes</th></tr></thead>\n<tbody>\n";
  for (const submission& s : submissions) {
    const std::string outcome = outcome_of(s);
    std::string score, cases, notes;
    if (s.result) {
      const double value = s.result->value("score", 0.0);
      if (value > 0) score = fmt::format("{:.1f} {}", value, s.result->value("speed_unit", ""));
      cases = case_set_label(s.result->value("case_set", ""));
    }
    if (s.rejudge_of > 0) notes += fmt::format("rejudge of <a href=\"/submissions/{0}\">{0}</a>", s.rejudge_of);
    if (s.late_seconds > 0)
      notes += (notes.empty() ? "" : "; ") + fmt::format("<span class=\"late\">{}: late by {}</span>",
                                                         html(s.assignment), html(span(s.late_seconds)));
    if (s.now == state::failed) notes += (notes.empty() ? "" : "; ") + html(s.error);
    out += fmt::format("<tr><td><a href=\"/submissions/{0}\">{0}</a></td><td>{1}</td><td>{2}</td>"
                       "<td><span class=\"state {3}\">{3}</span></td><td>{4}</td><td class=\"num\">{5}</td>"
                       "<td>{6}</td><td>{7}</td></tr>\n",
                       s.id, html(s.account), html(s.submitted_at), state_name(s.now),
                       outcome == "waiting" ? std::string()
                                            : fmt::format("<span class=\"verdict {0}\">{0}</span>", html(outcome)),
                       html(score), html(cases), notes);
  }
  return out + "</tbody>\n</table>\n";
}
} // namespace

std::string dashboard_index_page(const account& who, const std::vector<problem_entry>& problems,
                                 const queue_overview& overview) {
  std::map<std::string, problem_tally> tally_of;
  for (const problem_tally& t : overview.tallies) tally_of[t.problem] = t;
  std::string body = "<p class=\"hint\">Each problem with its submissions, then the server's queue: every "
                     "submission not yet graded, those a worker holds first, then the others in the order the "
                     "workers will take them. " +
                     live_note() + "</p>\n<div id=\"dashboard\">\n<h2>Problems</h2>\n";
  body += "<table class=\"data\" id=\"problems\">\n<thead><tr><th scope=\"col\">problem</th>"
          "<th scope=\"col\">submissions</th><th scope=\"col\">accounts</th><th scope=\"col\">not graded yet</th>"
          "</tr></thead>\n<tbody>\n";
  for (const problem_entry& p : problems) {
    const problem_tally t = tally_of.count(p.name) ? tally_of[p.name] : problem_tally{p.name};
    body += fmt::format("<tr><td><a href=\"/dashboard/{0}\">{0}</a>{1}</td><td class=\"num\">{2}</td>"
                        "<td class=\"num\">{3}</td><td class=\"num\">{4}</td></tr>\n",
                        html(p.name), p.draft ? " <span class=\"draft\">draft</span>" : "", t.submissions, t.accounts,
                        t.in_line);
  }
  body += "</tbody>\n</table>\n<h2>Queue</h2>\n";
  body += overview.line.empty() ? std::string("<p>Nothing is waiting or being graded.</p>\n")
                                : line_table(overview.line, true);
  return page("Dashboard", who, body + "</div>\n", {"board.js"});
}

std::string dashboard_page(const account& who, const problem_dashboard& d) {
  const std::string name = html(d.problem);
  std::string body =
      fmt::format("<p class=\"hint\">Every submission to <a href=\"/problems/{0}\">{0}</a>, rejudged copies included. "
                  "<a href=\"/similarity/{0}\">Similarity report</a> · <a href=\"/board/{0}\">Board</a> · "
                  "<a href=\"/api/v1/problems/{0}/dashboard\">This page as JSON</a>. {1}</p>\n<div id=\"dashboard\">\n",
                  name, live_note());
  body += "<h2>Verdicts</h2>\n" + verdict_table(d);
  body += "<p class=\"hint\">NR: compiled, not run (the server has no GPU). failed: the judge could not grade it. "
          "waiting: not graded yet. An account's latest is its newest submission: a rejudged copy stands for its "
          "student until they submit again.</p>\n";
  body += "<h2>Queue</h2>\n";
  body += d.line.empty() ? fmt::format("<p>Nothing of {} is waiting or being graded.</p>\n", name)
                         : line_table(d.line, false);
  body += "<h2>Submissions</h2>\n";
  body += d.submissions.empty() ? std::string("<p>No submissions yet.</p>\n") : submissions_table(d.submissions);
  return page("Dashboard: " + d.problem, who, body + "</div>\n", {"board.js"});
}

} // namespace judge::service
