// judge history <problem> [author]: every graded submission to a problem from the results store, newest
// first, with its verdict, score and first failed case.
#include "judge/cli/cli.hpp"

#include "judge/cli/cli_store.hpp"
#include "judge/problem/case_set_version.hpp"
#include "judge/problem/problem.hpp"
#include "judge/record/record_json.hpp"
#include "judge/service/queue/submission_queue.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

namespace judge::cli {

namespace {
struct history_flags {
  std::string problem, author, db_file;
  bool json = false;
};

/// The first case that was not accepted, in case order (the one that decided the verdict); null if none.
const case_result* first_failed(const solution_result& r) {
  auto it = std::find_if(r.cases.begin(), r.cases.end(), [](const case_result& c) { return c.v != verdict::accepted; });
  return it == r.cases.end() ? nullptr : &*it;
}

/// NR for a solution compiled but not run, as --json, the web's History and `judge run` say it.
std::string verdict_text(const solution_result& r) { return r.compiled_only ? not_run_verdict_name : short_name(r.v); }

/// The version of the cases `r` was graded on, "*" marking one older than `current`.
std::string cases_cell(const solution_result& r, const std::string& current) {
  return case_set_label(r.case_set) + (r.case_set != current ? "*" : "");
}

std::string history_text(const std::string& problem, const std::string& author,
                         const std::vector<solution_result>& results, const std::string& current) {
  if (results.empty())
    return author.empty() ? fmt::format("No results for {} yet.\n", problem)
                          : fmt::format("No results for {} by {} yet.\n", problem, author);
  std::string out = fmt::format("{:<20}  {:<12}  {:<7}  {:>10}  {:<13}  {:<24}  {}\n", "graded at", "author",
                                "verdict", "score", "cases", "first failed case", "path");
  bool older = false;
  for (const solution_result& r : results) {
    const case_result* failed = first_failed(r);
    const std::string score = r.score > 0 ? fmt::format("{:.1f}", r.score) : "-";
    const std::string failed_case =
        failed ? failed->name + (failed->hidden ? " (hidden)" : "") : (r.cases.empty() ? "-" : "none");
    out += fmt::format("{:<20}  {:<12}  {:<7}  {:>10}  {:<13}  {:<24}  {}{}\n", r.graded_at, r.author, verdict_text(r),
                       score, cases_cell(r, current), failed_case, r.path,
                       r.implausible ? "  (implausible time: not ranked)" : "");
    older = older || r.case_set != current;
  }
  if (older) out += fmt::format("* graded on other cases than {}'s current ones ({})\n", problem, current);
  return out;
}

std::string history_json(const std::string& problem, const std::vector<solution_result>& results,
                         const std::string& current) {
  nlohmann::json doc = {{"problem", problem}, {"case_set", current}, {"submissions", nlohmann::json::array()}};
  for (const solution_result& r : results) {
    const case_result* failed = first_failed(r);
    nlohmann::json first = nullptr;
    if (failed)
      first = {{"name", failed->name},
               {"hidden", failed->hidden},
               {"verdict", short_name(failed->v)},
               {"message", failed->message}};
    doc["submissions"].push_back({{"graded_at", r.graded_at},
                                  {"author", r.author},
                                  {"path", r.path},
                                  {"content_hash", r.content_hash},
                                  {"case_set", r.case_set},
                                  {"verdict", verdict_text(r)},
                                  {"compiled_only", r.compiled_only},
                                  {"message", r.message},
                                  {"score", r.score},
                                  {"implausible", r.implausible},
                                  {"speed_unit", r.speed_unit},
                                  {"device", r.device.name},
                                  {"first_failed_case", std::move(first)}});
  }
  // `// author:` lines are not checked for UTF-8; a stray byte must not lose the whole history.
  return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

int history(const context& ctx, const history_flags& f) {
  // An unknown problem is a usage error, not an empty history.
  const problem_spec spec = load_problem(ctx.where.problems() / f.problem);
  const std::string current = case_set_version(spec.spec_file, ctx.where.testcases() / f.problem / "cases.yaml");
  std::vector<solution_result> results;
  if (std::optional<results_db> db = open_store_to_read(ctx, f.db_file)) {
    results = db->results_for(f.problem);
    // A server's submissions compiled but not run (no GPU) are not stored as results; its queue keeps
    // them, and the web's History lists them: so does this.
    service::submission_queue queue(*db);
    for (const service::submission& s : queue.done_not_recorded(f.problem)) {
      solution_result r = record_from_json(*s.result);
      r.problem = s.problem;
      r.author = s.account;
      r.path = "submission " + std::to_string(s.id);
      results.push_back(std::move(r));
    }
    std::stable_sort(results.begin(), results.end(),
                     [](const solution_result& a, const solution_result& b) { return a.graded_at < b.graded_at; });
  }
  if (!f.author.empty())
    results.erase(
        std::remove_if(results.begin(), results.end(), [&](const solution_result& r) { return r.author != f.author; }),
        results.end());
  std::reverse(results.begin(), results.end()); // the store gives oldest first
  std::fputs((f.json ? history_json(f.problem, results, current) : history_text(f.problem, f.author, results, current))
                 .c_str(),
             stdout);
  return 0;
}
} // namespace

void add_history(CLI::App& app, context& ctx) {
  auto [sub, flags] = add_problem_command<history_flags>(
      app, ctx, "history", "every graded submission to a problem (or by one author), newest first", history);
  sub->add_option("author", flags->author, "only this author's submissions");
  add_store_option(*sub, flags->db_file);
  sub->add_flag("--json", flags->json, "print JSON instead of a table");
}

} // namespace judge::cli
