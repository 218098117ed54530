// The web UI's pages, server-rendered: each a pure function of the data it shows (web_routes.cpp
// fetches the data and checks who may see it), so every page is unit-tested without a server. No
// framework and nothing from elsewhere: one stylesheet and two small scripts under /assets/.
// Every string that came from a user, a file or the store is escaped here.
#pragma once

#include "judge/course/assignment_board.hpp"
#include "judge/course/course.hpp"
#include "judge/course/gradebook.hpp"
#include "judge/record/grade_result.hpp"
#include "judge/report/leaderboard.hpp"
#include "judge/report/similarity.hpp"
#include "judge/service/queue/accounts.hpp"
#include "judge/service/queue/problem_dashboard.hpp"
#include "judge/service/queue/service_state.hpp"
#include "judge/service/queue/submission_queue.hpp"

#include <optional>
#include <string>
#include <vector>

namespace judge::service {

/// `text` escaped for HTML text and attribute values.
std::string html(const std::string& text);

/// The hidden field every form of a signed-in page carries: the account's form token
/// (queue/accounts.hpp), which the route checks before it changes anything.
std::string form_token_field(const account& who);

/// A whole page: the site's header (with the account's name and a sign-out button when signed in),
/// `title` as <title> and <h1>, then `body`. `scripts` names assets (e.g. "submission.js").
std::string page(const std::string& title, const std::optional<account>& who, const std::string& body,
                 const std::vector<std::string>& scripts = {}, const std::vector<std::string>& stylesheets = {});

/// GET /: the sign-in form (token in a password field); `error` shown above it when not empty.
std::string signin_page(const std::string& error);

/// GET /problems: the problems as links, with their unit and timed cases.
std::string problems_page(const account& who, const std::vector<problem_entry>& problems);

/// What a problem page shows besides its statement.
struct problem_view {
  problem_entry entry;
  std::string statement_html; ///< markdown_to_html() of the statement
  std::string declaration;    ///< problem_spec::solve_declaration()
};
/// GET /problems/{name}: the statement, the expected signature, links to submit and to the board.
std::string problem_page(const account& who, const problem_view& problem);

/// What the submit form holds.
struct submit_form {
  std::string problem;
  std::string file_name = "solution.cu"; ///< the pasted source's file name
  std::string source;                    ///< prefilled with the starter; after a refusal, what was sent
  std::string error;                     ///< why the last attempt was refused; "" for none
  std::size_t max_files = 8, max_file_bytes = 256 * 1024;
  std::string declaration; ///< problem_spec::solve_declaration(): what solve() must be
};
/// GET /problems/{name}/submit: paste (prefilled with the starter) or upload files.
std::string submit_page(const account& who, const submit_form& form);

/// The result as the submission page shows it: the verdict line, the compile errors, the per-case table
/// with the terminal report's columns, notes and the failure's message. `baseline_label`: "cuBLAS".
std::string result_html(const solution_result& r, const std::string& baseline_label);

/// GET /submissions/{id}: its state (kept live by submission.js until done or failed), times, GPU, the
/// files sent, and once done the result (already reduced for contest mode by the caller).
std::string submission_page(const account& who, const submission& s, const std::optional<solution_result>& result,
                            const std::string& baseline_label);

/// GET /board/{problem}: the leaderboard page's boards inside the site (kept live by board.js).
/// `empty_because`: why the boards may stay empty on this server ("" when they fill as usual), shown
/// while there are none.
std::string board_page(const account& who, const std::string& problem, const std::vector<leaderboard>& boards,
                       const std::string& empty_because = "");

/// GET /history: the submissions listed (one's own; everyone's for an instructor, `everyone` set).
std::string history_page(const account& who, const std::vector<submission>& submissions, bool everyone);

/// GET /assignments: the course's assignments `who` may see (`shown`), each with its problems, release,
/// deadline (`who`'s own, with an extension), late policy and boards; an instructor's rows link the
/// gradebook. `now` [s since the epoch] tells what is open.
std::string assignments_page(const account& who, const std::vector<const course::assignment*>& shown,
                             std::int64_t now);

/// GET /assignments/{name}/board (signed in, `who` set) and /public/board/{name} (no one signed in): the
/// boards of the assignment's problems (kept live by board.js), only what counts for it, with the late
/// entries and their penalty said under each. `empty_because`: as board_page's.
std::string assignment_board_page(const std::optional<account>& who, const course::assignment& a,
                                  const std::vector<course::problem_boards>& boards,
                                  const std::string& empty_because = "");

/// GET /assignments/{name}/gradebook (instructors): the roster × problems grid and a link to its CSV.
std::string gradebook_page(const account& who, const course::assignment& a, const course::gradebook& g);
/// GET /similarity/{problem} (instructors): the pairs of near-identical submissions (report/similarity.hpp),
/// each side linked to its submission, and what the comparison can and cannot see.
std::string similarity_page(const account& who, const std::string& problem, std::size_t compared, double threshold,
                            const std::vector<similar_pair>& pairs);

/// GET /dashboard (instructors): each problem (`problems`) with its submissions, accounts and unfinished
/// ones, linked to its dashboard, and the server's whole queue: where each unfinished submission stands
/// and since when. Kept live by board.js.
std::string dashboard_index_page(const account& who, const std::vector<problem_entry>& problems,
                                 const queue_overview& overview);
/// GET /dashboard/{problem} (instructors): the verdicts (each account's latest, every submission), the
/// problem's part of the queue, every submission, and links to the similarity report and the JSON.
/// Kept live by board.js.
std::string dashboard_page(const account& who, const problem_dashboard& d);

/// A page that says what went wrong (an unknown problem, a submission that is not one's own).
std::string error_page(const std::optional<account>& who, const std::string& title, const std::string& message);

} // namespace judge::service
