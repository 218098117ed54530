// The live class leaderboard: the leaderboard page's boards (report/leaderboard_html.cpp, one place
// for how a board looks) inside the site, refreshed by board.js.
#include "judge/service/web/web_pages.hpp"

#include <fmt/format.h>

namespace judge::service {

std::string board_page(const account& who, const std::string& problem, const std::vector<leaderboard>& boards,
                       const std::string& empty_because) {
  std::string body = fmt::format("<p class=\"hint\">Updates itself every 5 seconds (last: <span id=\"updated\">at "
                                 "load</span>). <a href=\"/problems/{}\">The problem</a>.</p>\n",
                                 html(problem));
  if (boards.empty() && !empty_because.empty()) {
    // Who can do something about it is told what; the instructor is the one others are sent to.
    const char* advice = who.who == role::instructor
                             ? "Run judge serve on a machine with an NVIDIA GPU (or with --backend slurm) for "
                               "results to be timed and ranked."
                             : "Ask your instructor for a server with an NVIDIA GPU.";
    body += fmt::format("<p class=\"notice\">{} {}</p>\n", html(empty_because), advice);
  }
  body += "<div id=\"boards\">\n" + leaderboard_html_sections(boards) + "</div>\n";
  return page("Leaderboard: " + problem, who, body, {"board.js"}, {"leaderboard.css"});
}

} // namespace judge::service
