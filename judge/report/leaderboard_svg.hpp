// The leaderboard page's charts as inline SVG, drawn in C++ so the page needs nothing at view time.
// Styling comes from the page's CSS classes (see leaderboard_html.cpp).
#pragma once

#include "judge/report/leaderboard.hpp"

#include <string>

namespace judge {

/// Horizontal bars, one per entry in rank order, length ∝ score; a vertical dashed line, labelled, marks the
/// board's baseline score when it has one.
std::string score_bar_chart_svg(const leaderboard& board);

/// Log-log roofline: arithmetic intensity [FLOP/byte] on x, GFLOPS on y; the fp32 peak as the flat roof,
/// measured bandwidth × intensity as the slanted one; one labelled dot per entry at (intensity, gflops) and
/// one for the baseline. Returns an HTML paragraph saying why instead when nothing can be placed.
std::string roofline_svg(const leaderboard& board);

} // namespace judge
