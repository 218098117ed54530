// judge history <problem> [author]: every graded submission to a problem from the results store, newest
// first, with its verdict, score and first failed case.
#include "judge/cli/cli.hpp"

#include "judge/cli/cli_store.hpp"
#include "judge/problem/problem.hpp"

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

std::string verdict_text(const solution_result& r) { return r.compiled_only ? "not run" : short_name(r.v); }

std::string history_text(const std::string& problem, const std::string& author,
                         const std::vector<solution_result>& results) {
  if (results.empty())
    return author.empty() ? fmt::format("No results for {} yet.\n", problem)
                          : fmt::format("No results for {} by {} yet.\n", problem, author);
  std::string out = fmt::format("{:<20}  {:<12}  {:<7}  {:>10}  {:<24}  {}\n", "graded at", "author", "verdict",
                                "score", "first failed case", "path");
  for (const solution_result& r : results) {
    const case_result* failed = first_failed(r);
    const std::string score = r.score > 0 ? fmt::format("{:.1f}", r.score) : "-";
    const std::string failed_case =
        failed ? failed->name + (failed->hidden ? " (hidden)" : "") : (r.cases.empty() ? "-" : "none");
    out += fmt::format("{:<20}  {:<12}  {:<7}  {:>10}  {:<24}  {}{}\n", r.graded_at, r.author, verdict_text(r), score,
                       failed_case, r.path, r.implausible ? "  (implausible time: not ranked)" : "");
  }
  return out;
}

std::string history_json(const std::string& problem, const std::vector<solution_result>& results) {
  nlohmann::json doc = {{"problem", problem}, {"submissions", nlohmann::json::array()}};
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
                                  {"verdict", short_name(r.v)},
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
  load_problem(ctx.where.problems() / f.problem); // an unknown problem is a usage error, not an empty history
  std::vector<solution_result> results;
  if (std::optional<results_db> db = open_store_to_read(ctx, f.db_file)) results = db->results_for(f.problem);
  if (!f.author.empty())
    results.erase(
        std::remove_if(results.begin(), results.end(), [&](const solution_result& r) { return r.author != f.author; }),
        results.end());
  std::reverse(results.begin(), results.end()); // the store gives oldest first
  std::fputs((f.json ? history_json(f.problem, results) : history_text(f.problem, f.author, results)).c_str(), stdout);
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
