#include "judge/service/queue/access_policy.hpp"

#include "judge/problem/verdicts.hpp"

namespace judge::service {

bool can_see(const account& viewer, const submission& s) {
  return viewer.who == role::instructor || s.account == viewer.name;
}

std::optional<std::string> listed_account(const account& viewer, const std::string& asked) {
  if (viewer.who == role::instructor) return asked;
  if (!asked.empty() && asked != viewer.name) return std::nullopt;
  return viewer.name;
}

bool contest_view_for(const account& viewer, bool contest) { return contest && viewer.who == role::student; }

solution_result contest_view(solution_result r) {
  for (case_result& c : r.cases) {
    if (!c.hidden || c.v == verdict::accepted) continue;
    c.message = "details of hidden cases are not shown";
    c.sanitizer.clear(); // its threads, blocks and addresses are details of the hidden case
    c.wrong.reset();     // its expected value is the hidden data's
    if (r.v == c.v && r.message.rfind("case " + c.name + " ", 0) == 0)
      r.message = "case " + c.name + " (" + c.shape + ", hidden): " + short_name(c.v);
  }
  for (case_result& c : r.robustness) {
    if (!c.hidden || c.v == verdict::accepted) continue;
    c.message = "details of hidden cases are not shown";
    c.sanitizer.clear();
    c.wrong.reset();
  }
  r.learner_output.clear(); // it may print what the hidden data was
  return r;
}

const std::optional<nlohmann::json>& shown_result(const submission& s, bool contest_view) {
  return contest_view ? s.contest_result : s.result;
}

} // namespace judge::service
