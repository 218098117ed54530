// The course's pages: the assignments, an assignment's boards (signed in, or public as the course file
// allows), and the instructors' gradebook.
#include "judge/service/web/web_pages.hpp"

#include "judge/base/utc_time.hpp"
#include "judge/course/course_rules.hpp"
#include "judge/course/course_time.hpp"

#include <fmt/format.h>

namespace judge::service {

namespace {
std::string late_rule_text(const course::late_rule& r) {
  if (r.policy == course::late_policy::refuse) return "refused";
  if (r.penalty_per_day <= 0) return "accepted, marked late";
  return fmt::format("accepted, {:g}% of the score lost per day begun (at least {:g}% kept)", r.penalty_per_day,
                     r.floor);
}

std::string problem_links(const course::assignment& a) {
  std::string out;
  for (const std::string& p : a.problems)
    out += fmt::format("{}<a href=\"/problems/{}\">{}</a>", out.empty() ? "" : ", ", html(p), html(p));
  return out;
}
} // namespace

std::string assignments_page(const account& who, const std::vector<const course::assignment*>& shown,
                             std::int64_t now) {
  if (shown.empty())
    return page("Assignments", who,
                "<p>No assignment is open yet; the open problems are at <a href=\"/problems\">Problems</a>.</p>\n");
  const bool instructor = who.who == role::instructor;
  std::string body = "<table class=\"data\">\n<thead><tr><th scope=\"col\">assignment</th><th scope=\"col\">problems"
                     "</th><th scope=\"col\">released</th><th scope=\"col\">deadline</th><th scope=\"col\">late "
                     "submissions</th><th scope=\"col\">boards</th>";
  if (instructor) body += "<th scope=\"col\">gradebook</th>";
  body += "</tr></thead>\n<tbody>\n";
  for (const course::assignment* a : shown) {
    const std::int64_t deadline = course::deadline_for(*a, who.name);
    std::string deadline_text = judge::utc_text(deadline);
    if (deadline != a->deadline) deadline_text += " (your extension)";
    if (now > deadline) deadline_text += " (passed)";
    std::string boards = fmt::format("<a href=\"/assignments/{0}/board\">board<span class=\"skip\"> of {0}</span></a>",
                                     html(a->name));
    if (a->board.is_public)
      boards += fmt::format(" · <a href=\"/public/board/{0}\">public board<span class=\"skip\"> of {0}</span></a>",
                            html(a->name));
    body += fmt::format("<tr><td>{}{}</td><td>{}</td><td>{}{}</td><td>{}</td><td>{}</td><td>{}</td>",
                        html(a->name), a->title.empty() ? "" : ": " + html(a->title), problem_links(*a),
                        html(judge::utc_text(a->release)), course::released(*a, now) ? "" : " (not yet: students do not see it)",
                        html(deadline_text), html(late_rule_text(a->late)), boards);
    if (instructor)
      body += fmt::format("<td><a href=\"/assignments/{0}/gradebook\">gradebook<span class=\"skip\"> of {0}</span></a>"
                          "</td>",
                          html(a->name));
    body += "</tr>\n";
  }
  return page("Assignments", who, body + "</tbody>\n</table>\n");
}

std::string assignment_board_page(const std::optional<account>& who, const course::assignment& a,
                                  const std::vector<course::problem_boards>& boards, const std::string& empty_because) {
  std::string body = fmt::format("<p class=\"hint\">Only what counts for {}: submitted by the deadline{}. Updates "
                                 "itself every 5 seconds (last: <span id=\"updated\">at load</span>).</p>\n",
                                 html(a.name),
                                 a.late.policy == course::late_policy::accept
                                     ? ", or late with the late penalty taken from the score"
                                     : "");
  bool any = false;
  for (const course::problem_boards& p : boards) any = any || !p.boards.empty();
  if (!any && !empty_because.empty()) body += fmt::format("<p class=\"notice\">{}</p>\n", html(empty_because));
  body += "<div id=\"boards\">\n";
  for (const course::problem_boards& p : boards) {
    body += fmt::format("<h2>{}</h2>\n", html(p.problem));
    body += p.boards.empty() ? std::string("<p>No accepted, timed result counts here yet.</p>\n")
                             : leaderboard_html_sections(p.boards);
    if (!p.late.empty()) {
      body += "<ul class=\"late\">\n";
      for (const course::late_entry& e : p.late)
        body += fmt::format("<li>{} was late by {}: its score counts at {:.0f}%.</li>\n", html(e.author),
                            html(course::late_text(e.late_seconds)), e.kept * 100);
      body += "</ul>\n";
    }
  }
  body += "</div>\n";
  const std::string title = "Board: " + a.name + (a.title.empty() ? "" : " (" + a.title + ")");
  return page(title, who, body, {"board.js"}, {"leaderboard.css"});
}

std::string gradebook_page(const account& who, const course::assignment& a, const course::gradebook& g) {
  std::string body = fmt::format(
      "<p>Deadline {}; late submissions {}. A cell is the best submission that counts (in time, or late where "
      "accepted, its score less the penalty), how many were made, and how late the counted one was. "
      "<a href=\"/assignments/{}/gradebook.csv\">Download as CSV</a> for a grade import.</p>\n",
      html(judge::utc_text(a.deadline)), html(late_rule_text(a.late)), html(a.name));
  body += "<table class=\"data\" id=\"gradebook\">\n<thead><tr><th scope=\"col\">student</th><th scope=\"col\">name</th>";
  for (const std::string& p : g.problems) body += fmt::format("<th scope=\"col\">{}</th>", html(p));
  body += "</tr></thead>\n<tbody>\n";
  for (const course::gradebook_row& r : g.rows) {
    body += fmt::format("<tr{}><th scope=\"row\">{}</th><td>{}</td>", r.submitted() ? "" : " class=\"silent\"",
                        html(r.account), html(r.name));
    for (const course::gradebook_cell& c : r.cells) {
      if (c.submissions == 0) {
        body += "<td>never submitted</td>";
        continue;
      }
      std::string cell = c.graded ? fmt::format("<a href=\"/submissions/{0}\"><span class=\"verdict {1}\">{1}</span>"
                                                "</a>",
                                                c.submission, html(c.verdict))
                                  : std::string("not graded yet");
      if (c.graded && c.verdict == "AC") cell += fmt::format(" {:.1f} {}", c.score, html(c.unit));
      cell += fmt::format(" <span class=\"hint\">({} submission{})</span>", c.submissions, c.submissions == 1 ? "" : "s");
      if (c.late_seconds > 0)
        cell += fmt::format(" <span class=\"late\">late {} ({:.0f}% kept)</span>",
                            html(course::late_text(c.late_seconds)), c.kept * 100);
      body += "<td>" + cell + "</td>";
    }
    body += "</tr>\n";
  }
  body += "</tbody>\n</table>\n";
  return page("Gradebook: " + a.name, who, body);
}

} // namespace judge::service
