// Rankings: each author's best accepted solution to a problem, one board per GPU model, and the
// renderers that show them (terminal table, CSV, JSON, a self-contained HTML page).
#pragma once

#include "judge/store/results_db.hpp"

#include <optional>
#include <string>
#include <vector>

namespace judge {

/// One ranked case: a timed hidden case, whose speeds make up the score.
struct board_case {
  std::string name;
  std::string shape;
  double flops = 0, bytes = 0; ///< work of one call
  double baseline_speed = 0;   ///< [speed unit] median of the baseline speeds recorded with the entries; 0 if none
};

/// An entry's figures on one board case.
struct board_cell {
  double speed = 0;           ///< [speed unit]
  double pct_of_baseline = 0; ///< [%] as recorded when graded
};

struct board_entry {
  int rank = 0; ///< from 1; ties in score are broken by the earlier grading, so ranks are distinct
  std::string author;
  std::string path;
  std::string content_hash;
  std::string graded_at;
  std::string case_set;       ///< the version of the cases it was graded on; "" when not known
  bool older_cases = false;   ///< graded on another version than the problem's current one (board_filter)
  double score = 0;                             ///< [speed unit] geometric mean of the case speeds
  std::vector<std::optional<board_cell>> cells; ///< one per board case; empty where the entry lacks the case
  double intensity = 0;                         ///< [FLOP/byte] geometric mean over its cases; 0 if unknown
  double gflops = 0;                            ///< [GFLOPS] the score as compute throughput (for the roofline)
};

/// The ranking of one problem on one GPU model.
struct leaderboard {
  std::string problem;
  device_info device;               ///< the GPU model; its figures from the most recent entry
  std::string speed_unit;           ///< "GFLOPS" or "GB/s"
  std::vector<board_case> cases;    ///< in case order
  double baseline_score = 0;        ///< geometric mean of the cases' baseline speeds; 0 if any is missing
  std::vector<board_entry> entries; ///< best first
  /// Accepted results on this GPU model left out because a time was below the device's physical floor
  /// (solution_result::implausible): flagged for the instructor, never ranked.
  int implausible_left_out = 0;
};

/// One board per GPU model that has an accepted, timed result for `problem`, ordered by device name.
/// Non-accepted results never appear, nor accepted ones graded without timing (score 0: nothing to rank),
/// nor implausible ones (counted in implausible_left_out); each author appears once per board, with their
/// best score.
std::vector<leaderboard> build_leaderboard(results_db& db, const std::string& problem);

/// Which results a board is built from (`judge leaderboard` options); the default takes them all.
struct board_filter {
  std::string before;     ///< "YYYY-MM-DDTHH:MM:SSZ": only results graded strictly before it; "" for all
  bool latest = false;    ///< only each author's latest graded result on each GPU model (ranked if accepted)
  bool anonymise = false; ///< authors shown as "student N", numbered by first submission; paths and hashes left out
  /// The problem's case-set version now (problem/case_set_version.hpp), or "" to leave versions aside. Set:
  /// an author with a result graded on it is ranked by those results only (after a rejudge, the new
  /// grades count), and an entry graded on another version is marked older_cases.
  std::string current_case_set;
};

/// "2025-03-01" or "2025-03-01T10:00[:00][Z]" (also with a space for T), UTC, as board_filter::before
/// holds it; throws std::invalid_argument saying what is accepted.
std::string parse_before(const std::string& text);

/// The boards of `problem` from `results` (every stored result for it, any order), filtered by `filter`.
std::vector<leaderboard> build_leaderboard(const std::vector<solution_result>& results, const board_filter& filter);
std::vector<leaderboard> build_leaderboard(results_db& db, const std::string& problem, const board_filter& filter);

/// The same, from results already loaded (any of them: each author's best per device is picked here too).
std::vector<leaderboard> build_leaderboard(const std::vector<solution_result>& results);

/// "fp32 peak 66908 GFLOPS, DRAM peak 4814 GB/s (copy measured 4243 GB/s)": the device's ceilings.
std::string peaks_text(const leaderboard& b);

/// "not ranked: 2 accepted result(s) timed below what this GPU can physically do, ...", or "" when the
/// board left nothing out.
std::string implausible_note(const leaderboard& b);

/// [%] entry.score / board.baseline_score × 100; 0 without a baseline score.
double pct_of_baseline_score(const leaderboard& board, const board_entry& entry);

/// Plain-text tables for a terminal, one per board.
std::string leaderboard_text(const std::string& problem, const std::vector<leaderboard>& boards);
/// RFC 4180 CSV with a header row, one row per (board, entry, case):
/// device,cc,rank,author,score,speed_unit,pct_of_baseline_score,graded_at,path,case,speed,
/// baseline_speed,pct_of_baseline. CRLF line ends; fields quoted where they need it.
std::string leaderboard_csv(const std::vector<leaderboard>& boards);
/// JSON: {"problem": ..., "boards": [{"device": {...}, "cases": [...], "entries": [...]}, ...]}.
std::string leaderboard_json(const std::string& problem, const std::vector<leaderboard>& boards);
/// A self-contained HTML page (inline CSS and SVG, nothing fetched when viewed): per board the ranking
/// table, a bar chart of scores with the baseline's score marked, and a roofline plot.
std::string leaderboard_html(const std::string& problem, const std::vector<leaderboard>& boards);
/// The page's content without the document around it: a note on how ranks are made and a section per
/// board (the web server's /board page shows it inside its own layout).
std::string leaderboard_html_sections(const std::vector<leaderboard>& boards);
/// The page's stylesheet: inlined by leaderboard_html(), served as a file by the web server.
const char* leaderboard_css();

/// The line under a board whose entries include one graded on older cases (marked "*").
extern const std::string older_cases_note;

/// One CSV field per RFC 4180: quoted when it holds a comma, quote, CR or LF, with quotes doubled.
std::string csv_field(const std::string& text);

} // namespace judge
