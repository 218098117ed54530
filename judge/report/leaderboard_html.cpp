// The leaderboard as one self-contained HTML page: inline CSS, inline SVG, no scripts, nothing fetched.
// Every string that came from the results store is escaped: author names are user input.
#include "judge/report/leaderboard.hpp"
#include "judge/report/leaderboard_svg.hpp"
#include "judge/problem/case_set_version.hpp"
#include "judge/base/xml_escape.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>

namespace judge {

namespace {

std::string esc(const std::string& text) { return xml_escape(text); }

constexpr const char* page_css = R"css(
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 2rem; color: #222; }
h1 { font-size: 1.6rem; }
h2 { font-size: 1.3rem; margin-top: 2.5rem; border-bottom: 1px solid #ccc; }
.cc, .peaks, .note, .shape { color: #666; font-weight: normal; }
.shape, .pct { font-size: 0.8em; }
table.ranking { border-collapse: collapse; margin: 1rem 0; }
table.ranking th, table.ranking td { border: 1px solid #ddd; padding: 0.3rem 0.6rem; vertical-align: top; }
table.ranking th { background: #f4f4f4; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.baseline td { background: #fff4f4; font-style: italic; }
td.path { overflow-wrap: break-word; font-family: ui-monospace, monospace; font-size: 0.85em; }
.pct { color: #666; }
svg.chart { display: block; margin: 0.5rem 0 1.5rem; font-size: 12px; }
svg .grid { stroke: #e4e4e4; stroke-width: 1; }
svg .tick, svg .value { fill: #555; }
svg .label { fill: #222; }
svg .axis-title { fill: #333; font-weight: bold; }
svg .bar { fill: #4c78a8; }
svg .baseline { stroke: #d62728; stroke-width: 2; stroke-dasharray: 6 4; }
svg .baseline-label { fill: #d62728; font-weight: bold; }
svg .roof { fill: none; stroke: #333; stroke-width: 2; }
svg .roof-label { fill: #333; }
svg .dot { fill: #4c78a8; stroke: #fff; stroke-width: 1; }
svg .baseline-dot { fill: #d62728; }
td.older { color: #a15c00; font-weight: bold; }
)css";

/// `text`, escaped, allowed to wrap after each of `after`, so that long paths and case names wrap where
/// they read well instead of pushing the table off the page.
std::string wrappable(const std::string& text, std::string_view after) {
  std::string out;
  for (const char c : esc(text)) {
    out += c;
    if (after.find(c) != std::string_view::npos) out += "<wbr>";
  }
  return out;
}

/// An ISO time that may wrap between its date and its time of day.
std::string wrappable_time(const std::string& iso_time) {
  std::string out = esc(iso_time);
  if (const auto t = out.find('T'); t != std::string::npos) out.insert(t, "<wbr>");
  return out;
}

std::string ranking_table(const leaderboard& b) {
  std::string out = "<table class=\"ranking\">\n<thead><tr><th>rank</th><th>author</th>";
  out += fmt::format("<th>score [{}]</th><th>% of baseline</th>", esc(b.speed_unit));
  for (const board_case& c : b.cases)
    out += fmt::format("<th>{}<br><span class=\"shape\">{}</span></th>", wrappable(c.name, "_"), esc(c.shape));
  out += "<th>graded at</th><th>cases</th><th>solution</th></tr></thead>\n<tbody>\n";
  for (const board_entry& e : b.entries) {
    out += fmt::format("<tr><td class=\"num\">{}</td><td>{}</td><td class=\"num\">{:.1f}</td>", e.rank, esc(e.author),
                       e.score);
    out += b.baseline_score > 0 ? fmt::format("<td class=\"num\">{:.1f}%</td>", pct_of_baseline_score(b, e))
                                : std::string("<td class=\"num\">–</td>");
    for (const auto& cell : e.cells)
      out += cell ? fmt::format("<td class=\"num\">{:.1f}<br><span class=\"pct\">{:.1f}%</span></td>", cell->speed,
                                cell->pct_of_baseline)
                  : std::string("<td class=\"num\">–</td>");
    out += fmt::format("<td>{}</td>", wrappable_time(e.graded_at));
    out += e.older_cases ? fmt::format("<td class=\"older\" title=\"graded on older cases\">{}*</td>",
                                       esc(case_set_label(e.case_set)))
                         : fmt::format("<td>{}</td>", esc(case_set_label(e.case_set)));
    out += fmt::format("<td class=\"path\" title=\"{}\">{}</td></tr>\n", esc(e.content_hash), wrappable(e.path, "/"));
  }
  if (b.baseline_score > 0) {
    out += fmt::format("<tr class=\"baseline\"><td class=\"num\">–</td><td>baseline</td>"
                       "<td class=\"num\">{:.1f}</td><td class=\"num\">100.0%</td>",
                       b.baseline_score);
    for (const board_case& c : b.cases) out += fmt::format("<td class=\"num\">{:.1f}</td>", c.baseline_speed);
    out += "<td></td><td></td><td></td></tr>\n";
  }
  return out + "</tbody>\n</table>\n";
}

std::string board_section(const leaderboard& b) {
  std::string out = "<section class=\"board\">\n";
  out += fmt::format("<h2>{} <span class=\"cc\">(compute capability {})</span></h2>\n", esc(b.device.name),
                     esc(b.device.cc));
  out += fmt::format("<p class=\"peaks\">{} · {} ranked cases</p>\n", esc(peaks_text(b)), b.cases.size());
  out += ranking_table(b);
  if (std::any_of(b.entries.begin(), b.entries.end(), [](const board_entry& e) { return e.older_cases; }))
    out += fmt::format("<p class=\"note older\">{}</p>\n", esc(older_cases_note));
  if (b.implausible_left_out > 0) out += fmt::format("<p class=\"note\">{}</p>\n", esc(implausible_note(b)));
  out += "<h3>Score per author</h3>\n" + score_bar_chart_svg(b);
  out += "<h3>Roofline</h3>\n" + roofline_svg(b);
  return out + "</section>\n";
}

} // namespace

const char* leaderboard_css() { return page_css; }

std::string leaderboard_html_sections(const std::vector<leaderboard>& boards) {
  std::string out =
      "<p class=\"note\">Each author's best accepted solution on each GPU model. The score is the geometric "
      "mean of the speed over the timed hidden cases; ties go to the earlier submission.</p>\n";
  if (boards.empty()) out += "<p>No accepted, timed results yet.</p>\n";
  for (const leaderboard& b : boards) out += board_section(b);
  return out;
}

std::string leaderboard_html(const std::string& problem, const std::vector<leaderboard>& boards) {
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += fmt::format("<title>Leaderboard: {}</title>\n<style>{}</style>\n</head>\n<body>\n", esc(problem), page_css);
  out += fmt::format("<h1>Leaderboard: {}</h1>\n", esc(problem));
  out += leaderboard_html_sections(boards);
  return out + "</body>\n</html>\n";
}

} // namespace judge
