#include "judge/report/leaderboard_svg.hpp"

#include "judge/problem/problem.hpp"
#include "common/stats.hpp"
#include "judge/base/xml_escape.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace judge {

namespace {

std::string esc(const std::string& text) { return xml_escape(text); }

std::string svg_open(double width, double height, const std::string& title) {
  return fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"{0:.0f}\" height=\"{1:.0f}\" "
                     "viewBox=\"0 0 {0:.0f} {1:.0f}\" role=\"img\">\n<title>{2}</title>\n",
                     width, height, esc(title));
}

/// `text` cut to at most `limit` characters (UTF-8 code points), "…" marking a cut.
std::string shortened(const std::string& text, std::size_t limit) {
  std::size_t characters = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) continue; // inside a character
    if (++characters == limit) {
      std::size_t end = i + 1;
      while (end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) ++end;
      return end < text.size() ? text.substr(0, i) + "\u2026" : text;
    }
  }
  return text;
}

/// An axis label for a round value: 500, 2.5k, 40k, 1M (fmt's {:g} would write 1e+06).
std::string tick_text(double v) {
  if (v >= 1e6) return fmt::format("{:g}M", v / 1e6);
  if (v >= 1e3) return fmt::format("{:g}k", v / 1e3);
  return fmt::format("{:g}", v);
}

/// A round step (1, 2 or 5 × 10^k) giving about `count` ticks up to `max`.
double tick_step(double max, int count) {
  const double raw = max / count;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0})
    if (raw <= m * magnitude) return m * magnitude;
  return 10 * magnitude;
}

// ---- bar chart ----

constexpr double bar_width = 760, bar_label = 170, bar_right = 110, bar_top = 30, bar_row = 26, bar_height = 18,
                 bar_axis = 42;

} // namespace

std::string score_bar_chart_svg(const leaderboard& board) {
  const double height = bar_top + bar_row * static_cast<double>(board.entries.size()) + bar_axis;
  double max = board.baseline_score;
  for (const board_entry& e : board.entries) max = std::max(max, e.score);
  if (max <= 0) max = 1;
  const double step = tick_step(max * 1.05, 5);
  max = std::ceil(max * 1.05 / step) * step;
  const double plot = bar_width - bar_label - bar_right;
  auto x = [&](double v) { return bar_label + plot * v / max; };
  const double bottom = bar_top + bar_row * static_cast<double>(board.entries.size());

  std::string out = svg_open(bar_width, height, fmt::format("score per author on {}", board.device.name));
  for (double t = 0; t <= max + step / 2; t += step)
    out += fmt::format("<line class=\"grid\" x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\"/>"
                       "<text class=\"tick\" x=\"{0:.1f}\" y=\"{3:.1f}\" text-anchor=\"middle\">{4}</text>\n",
                       x(t), bar_top - 4, bottom, bottom + 16, tick_text(t));
  for (std::size_t i = 0; i < board.entries.size(); ++i) {
    const board_entry& e = board.entries[i];
    const double y = bar_top + bar_row * static_cast<double>(i) + (bar_row - bar_height) / 2;
    // Long names are cut to fit the label column; the full name shows on hover.
    out += fmt::format("<text class=\"label\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">"
                       "<title>{}</title>{}. {}</text>",
                       bar_label - 8, y + bar_height - 4, esc(e.author), e.rank, esc(shortened(e.author, 20)));
    out += fmt::format("<rect class=\"bar\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\"/>", bar_label,
                       y, x(e.score) - bar_label, bar_height);
    out += fmt::format("<text class=\"value\" x=\"{:.1f}\" y=\"{:.1f}\">{:.1f}</text>\n", x(e.score) + 4,
                       y + bar_height - 4, e.score);
  }
  if (board.baseline_score > 0)
    out += fmt::format("<line class=\"baseline\" x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\"/>"
                       "<text class=\"baseline-label\" x=\"{0:.1f}\" y=\"{3:.1f}\" text-anchor=\"middle\">"
                       "baseline {4:.1f} {5}</text>\n",
                       x(board.baseline_score), bar_top - 8, bottom, bar_top - 12, board.baseline_score,
                       esc(board.speed_unit));
  out += fmt::format("<text class=\"axis-title\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">score [{}]</text>\n",
                     bar_label + plot / 2, height - 2, esc(board.speed_unit));
  return out + "</svg>\n";
}

namespace {

// ---- roofline ----

constexpr double roof_width = 760, roof_height = 460, roof_left = 70, roof_right = 30, roof_top = 20, roof_bottom = 50,
                 roof_label_gap = 13,
                 roof_char_width = 7; // [px] a generous average at 12px sans-serif

struct point {
  double intensity, gflops;
  std::string label;
  bool baseline;
};

double decade_below(double v) { return std::pow(10.0, std::floor(std::log10(v))); }
double decade_above(double v) { return std::pow(10.0, std::ceil(std::log10(v))); }

} // namespace

std::string roofline_svg(const leaderboard& board) {
  std::vector<point> points;
  for (const board_entry& e : board.entries)
    if (e.intensity > 0 && e.gflops > 0) points.push_back({e.intensity, e.gflops, e.author, false});
  std::vector<double> case_intensity;
  for (const board_case& c : board.cases) case_intensity.push_back(c.bytes > 0 ? c.flops / c.bytes : 0);
  const double baseline_intensity = judge_stats::geometric_mean(case_intensity);
  if (board.baseline_score > 0 && baseline_intensity > 0) {
    const double gflops = board.speed_unit == unit_name(speed_unit::gflops) ? board.baseline_score
                                                                            : board.baseline_score * baseline_intensity;
    points.push_back({baseline_intensity, gflops, "baseline", true});
  }
  if (points.empty())
    return "<p class=\"note\">No roofline: the problem's work.flops or work.bytes is 0, so the arithmetic "
           "intensity of its cases is unknown.</p>\n";

  const double peak = board.device.fp32_peak_gflops, bandwidth = bandwidth_peak(board.device);
  double lo_x = points[0].intensity, hi_x = lo_x, lo_y = points[0].gflops, hi_y = lo_y;
  for (const point& p : points) {
    lo_x = std::min(lo_x, p.intensity), hi_x = std::max(hi_x, p.intensity);
    lo_y = std::min(lo_y, p.gflops), hi_y = std::max(hi_y, p.gflops);
  }
  if (peak > 0 && bandwidth > 0) lo_x = std::min(lo_x, peak / bandwidth), hi_x = std::max(hi_x, peak / bandwidth);
  if (peak > 0) hi_y = std::max(hi_y, peak);
  const double x_min = decade_below(lo_x / 2), x_max = decade_above(hi_x * 2);
  const double y_min = decade_below(lo_y / 2), y_max = decade_above(hi_y * 1.5);
  const double plot_w = roof_width - roof_left - roof_right, plot_h = roof_height - roof_top - roof_bottom;
  auto X = [&](double v) { return roof_left + plot_w * std::log10(v / x_min) / std::log10(x_max / x_min); };
  auto Y = [&](double v) { return roof_top + plot_h * std::log10(y_max / v) / std::log10(y_max / y_min); };

  std::string out = svg_open(roof_width, roof_height, fmt::format("roofline on {}", board.device.name));
  for (double d = x_min; d <= x_max * 1.001; d *= 10)
    out += fmt::format("<line class=\"grid\" x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\"/>"
                       "<text class=\"tick\" x=\"{0:.1f}\" y=\"{3:.1f}\" text-anchor=\"middle\">{4}</text>\n",
                       X(d), roof_top, roof_top + plot_h, roof_top + plot_h + 16, tick_text(d));
  for (double d = y_min; d <= y_max * 1.001; d *= 10)
    out += fmt::format("<line class=\"grid\" x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\"/>"
                       "<text class=\"tick\" x=\"{3:.1f}\" y=\"{4:.1f}\" text-anchor=\"end\">{5}</text>\n",
                       roof_left, Y(d), roof_left + plot_w, roof_left - 6, Y(d) + 4, tick_text(d));
  out += fmt::format("<text class=\"axis-title\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">"
                     "arithmetic intensity [FLOP/byte]</text>\n",
                     roof_left + plot_w / 2, roof_height - 8);
  out += fmt::format("<text class=\"axis-title\" transform=\"translate(16 {:.1f}) rotate(-90)\" "
                     "text-anchor=\"middle\">GFLOPS</text>\n",
                     roof_top + plot_h / 2);

  // The roof: min(peak, bandwidth × intensity), clipped to the plot; either part may be unknown (0).
  if (peak > 0 || bandwidth > 0) {
    auto roof = [&](double i) {
      return peak > 0 && bandwidth > 0 ? std::min(peak, bandwidth * i) : peak > 0 ? peak : bandwidth * i;
    };
    const double start = bandwidth > 0 ? std::max(x_min, y_min / bandwidth) : x_min;
    const double end = peak > 0 ? x_max : std::min(x_max, y_max / bandwidth);
    std::vector<double> xs = {start};
    if (peak > 0 && bandwidth > 0 && peak / bandwidth > start && peak / bandwidth < end) xs.push_back(peak / bandwidth);
    xs.push_back(end);
    std::string line;
    for (double i : xs) line += fmt::format("{:.1f},{:.1f} ", X(i), Y(roof(i)));
    out += fmt::format("<polyline class=\"roof\" points=\"{}\"/>\n", line);
    if (peak > 0)
      out += fmt::format("<text class=\"roof-label\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">fp32 peak "
                         "{:.0f} GFLOPS</text>\n",
                         X(end) - 4, Y(peak) - 6, peak);
    if (bandwidth > 0) {
      const double to = xs.size() == 3 ? xs[1] : end;
      const double angle = std::atan2(Y(roof(to)) - Y(roof(start)), X(to) - X(start)) * 180.0 / 3.14159265358979323846;
      // dy shifts the text off the line in the rotated frame, i.e. perpendicular to it.
      const double at = start * std::pow(to / start, 0.08);
      out += fmt::format("<text class=\"roof-label\" transform=\"translate({:.1f} {:.1f}) rotate({:.1f})\" "
                         "dy=\"-6\">{} {:.0f} GB/s</text>\n",
                         X(at), Y(roof(at)), angle,
                         board.device.dram_peak_gbps > 0 ? "DRAM peak" : "measured bandwidth", bandwidth);
    }
  }

  // Solutions often share one intensity (it depends on the cases only), so labels are pushed apart
  // vertically where they would overlap.
  std::sort(points.begin(), points.end(), [](const point& a, const point& b) { return a.gflops > b.gflops; });
  std::vector<std::pair<double, double>> placed;
  for (const point& p : points) {
    const double cx = X(p.intensity), cy = Y(p.gflops);
    double ly = cy + 4;
    for (bool moved = true; moved;) {
      moved = false;
      for (const auto& [px, py] : placed)
        if (std::abs(px - cx) < 120 && std::abs(py - ly) < roof_label_gap) ly = py + roof_label_gap, moved = true;
    }
    placed.emplace_back(cx, ly);
    // A label that would run past the plot's right edge goes on the dot's left instead.
    const std::string label = fmt::format("{} ({:.1f})", shortened(p.label, 32), p.gflops);
    const bool left = cx + 9 + roof_char_width * static_cast<double>(label.size()) > roof_width;
    out += fmt::format("<circle class=\"{}\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"5\"/><text class=\"label\" "
                       "x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"{}\">{}</text>\n",
                       p.baseline ? "dot baseline-dot" : "dot", cx, cy, left ? cx - 9 : cx + 9, ly,
                       left ? "end" : "start", esc(label));
  }
  return out + "</svg>\n";
}

} // namespace judge
