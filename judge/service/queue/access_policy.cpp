#include "judge/service/queue/access_policy.hpp"

#include "judge/course/course_rules.hpp"

namespace judge::service {

bool can_see(const account& viewer, const submission& s) {
  return viewer.who == role::instructor || s.account == viewer.name;
}

bool can_see_draft(const account& viewer, bool draft) { return !draft || viewer.who == role::instructor; }

std::optional<std::string> listed_account(const account& viewer, const std::string& asked) {
  if (viewer.who == role::instructor) return asked;
  if (!asked.empty() && asked != viewer.name) return std::nullopt;
  return viewer.name;
}

bool can_see_problem(const account& viewer, const course::course_spec* course, const std::string& problem,
                     std::int64_t now) {
  return viewer.who == role::instructor || course::problem_released(course, problem, now);
}

bool can_see_assignment(const account& viewer, const course::assignment& a, std::int64_t now) {
  return viewer.who == role::instructor || course::released(a, now);
}

bool can_see_gradebook(const account& viewer) { return viewer.who == role::instructor; }

bool can_see_dashboard(const account& viewer) { return viewer.who == role::instructor; }

bool contest_view_for(const account& viewer, bool contest) { return contest && viewer.who == role::student; }

const std::optional<nlohmann::json>& shown_result(const submission& s, bool contest_view) {
  return contest_view ? s.contest_result : s.result;
}

} // namespace judge::service
