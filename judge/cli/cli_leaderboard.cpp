// judge leaderboard <problem>: each author's best accepted solution, one board per GPU model.
#include "cli.hpp"

#include "file_output.hpp"
#include "leaderboard.hpp"
#include "problem_spec.hpp"
#include "solution_files.hpp"

#include <cstdio>
#include <memory>

namespace judge::cli {

namespace {
struct board_flags {
  std::string problem, db_file, html_file, csv_file, json_file;
};

// A published page is replaced whole: a web server serving it never sends half of one.
void write_text(const std::string& file, const std::string& text) {
  write_file_atomically(file, text, "the leaderboard");
  std::fprintf(stderr, "wrote %s\n", file.c_str());
}

int show(const context& ctx, const board_flags& f) {
  load_problem(ctx.where.problems() / f.problem); // an unknown problem is a usage error, not an empty board
  const std::filesystem::path db_path = ctx.where.store(f.db_file);
  if (!std::filesystem::exists(db_path))
    throw usage_error(db_path.string() + " does not exist yet: grade some solutions first (bin/judge " + f.problem +
                      ")");
  results_db db(db_path);
  const auto boards = build_leaderboard(db, f.problem);
  std::fputs(leaderboard_text(f.problem, boards).c_str(), stdout);
  if (!f.html_file.empty()) write_text(f.html_file, leaderboard_html(f.problem, boards));
  if (!f.csv_file.empty()) write_text(f.csv_file, leaderboard_csv(boards));
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
}

} // namespace judge::cli
