// judge leaderboard <problem>: each author's best accepted solution, one board per GPU model.
#include "judge/cli/cli.hpp"

#include "judge/cli/cli_store.hpp"
#include "judge/base/file_output.hpp"
#include "judge/report/leaderboard.hpp"
#include "judge/problem/case_set_version.hpp"
#include "judge/problem/problem.hpp"
#include "judge/base/usage_error.hpp"

#include <cstdio>
#include <memory>

namespace judge::cli {

namespace {
struct board_flags {
  std::string problem, db_file, html_file, csv_file, json_file, before;
  bool latest = false, anonymise = false;
};

// A published page is replaced whole: a web server serving it never sends half of one.
void write_text(const std::string& file, const std::string& text) {
  write_file_atomically(file, text, "the leaderboard");
  std::fprintf(stderr, "wrote %s\n", file.c_str());
}

int show(const context& ctx, const board_flags& f) {
  // Every output path is checked before any work, so a typo costs nothing.
  check_output_path("--html", f.html_file);
  check_output_path("--csv", f.csv_file);
  check_output_path("--json", f.json_file);
  // An unknown problem is a usage error, not an empty board.
  const problem_spec spec = load_problem(ctx.where.problems() / f.problem);
  board_filter filter;
  filter.current_case_set = case_set_version(spec.spec_file, ctx.where.testcases() / f.problem / "cases.yaml");
  filter.latest = f.latest;
  filter.anonymise = f.anonymise;
  if (!f.before.empty()) {
    try {
      filter.before = parse_before(f.before);
    } catch (const std::invalid_argument& e) {
      throw usage_error(std::string("--before ") + e.what());
    }
  }
  // No store yet (nothing graded) is an empty board, like an empty store; a --db that does not exist is
  // a usage error (cli_store.hpp).
  std::vector<leaderboard> boards;
  if (std::optional<results_db> db = open_store_to_read(ctx, f.db_file))
    boards = build_leaderboard(*db, f.problem, filter);
  std::fputs(leaderboard_text(f.problem, boards).c_str(), stdout);
  if (!f.html_file.empty()) write_text(f.html_file, leaderboard_html(f.problem, boards));
  if (!f.csv_file.empty()) {
    write_text(f.csv_file, leaderboard_csv(boards));
    // The file stays valid CSV for a course's scripts (its header row); the person is told why it is empty.
    if (boards.empty())
      std::fprintf(stderr, "judge: no accepted, timed results for %s yet: %s holds only the header row\n",
                   f.problem.c_str(), f.csv_file.c_str());
  }
  if (!f.json_file.empty()) write_text(f.json_file, leaderboard_json(f.problem, boards));
  return 0;
}
} // namespace

void add_leaderboard(CLI::App& app, context& ctx) {
  auto [sub, flags] = add_problem_command<board_flags>(
      app, ctx, "leaderboard", "rank each author's best accepted solution (one board per GPU model)", show);
  add_store_option(*sub, flags->db_file);
  sub->add_option("--html", flags->html_file, "write a self-contained HTML page to FILE");
  sub->add_option("--csv", flags->csv_file, "write CSV to FILE");
  sub->add_option("--json", flags->json_file, "write JSON to FILE");
  sub->add_option("--before", flags->before,
                  "only results graded before DATE (UTC; YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS])");
  sub->add_flag("--latest", flags->latest,
                "rank each author's latest graded submission (per GPU model) instead of their best; an author "
                "whose latest was not accepted is left out");
  sub->add_flag("--anonymise", flags->anonymise,
                "show authors as \"student N\" (numbered by first submission to the problem) and leave out paths and "
                "content hashes");
}

} // namespace judge::cli
