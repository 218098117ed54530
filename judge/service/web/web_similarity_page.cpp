// The instructors' similarity report of a problem: pairs of near-identical submissions, each linked.
#include "judge/service/web/web_pages.hpp"

#include <fmt/format.h>

namespace judge::service {

namespace {
std::string side(const compared_source& s) {
  return fmt::format("{} · <a href=\"/submissions/{}\">{}</a>", html(s.author), s.id, html(s.label));
}
} // namespace

std::string similarity_page(const account& who, const std::string& problem, std::size_t compared, double threshold,
                            const std::vector<similar_pair>& pairs) {
  std::string body = fmt::format(
      "<p class=\"hint\">Each account's latest submission to <a href=\"/problems/{0}\">{0}</a> ({1} compared), "
      "pairs whose fingerprints overlap at least {2:.0f}% (<a href=\"/similarity/{0}?threshold=0.5\">50%</a>, "
      "<a href=\"/similarity/{0}?threshold=0.8\">80%</a>). Fingerprints are runs of normalised tokens, winnowed as "
      "MOSS does; the starter's are left out. Renamed identifiers, reformatting, new comments and constants are "
      "seen through; reordered functions mostly; a rewritten algorithm is not. A pair is a reason to read both, "
      "not a finding.</p>\n",
      html(problem), compared, threshold * 100);
  if (pairs.empty()) return page("Similarity: " + problem, who, body + "<p>No pair reaches it.</p>\n");
  body += "<table class=\"data\">\n<thead><tr><th scope=\"col\">overlap</th><th scope=\"col\">one</th>"
          "<th scope=\"col\">the other</th></tr></thead>\n<tbody>\n";
  for (const similar_pair& p : pairs)
    body += fmt::format("<tr><td class=\"num\">{:.1f}%</td><td>{}</td><td>{}</td></tr>\n", p.overlap * 100,
                        side(*p.a), side(*p.b));
  return page("Similarity: " + problem, who, body + "</tbody>\n</table>\n");
}

} // namespace judge::service
