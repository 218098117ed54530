#include "judge/course/course_rules.hpp"

#include "judge/base/utc_time.hpp"
#include "judge/course/course_time.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace judge::course {

bool released(const assignment& a, std::int64_t now) { return now >= a.release; }

bool problem_released(const course_spec* course, const std::string& problem, std::int64_t now) {
  if (!course) return true;
  const std::vector<const assignment*> holding = course->holding(problem);
  return holding.empty() ||
         std::any_of(holding.begin(), holding.end(), [&](const assignment* a) { return released(*a, now); });
}

std::int64_t deadline_for(const assignment& a, const std::string& account) {
  const auto it = a.extensions.find(account);
  return it == a.extensions.end() ? a.deadline : it->second;
}

hand_in judge_hand_in(const course_spec* course, const std::string& problem, const std::string& account,
                      std::int64_t now) {
  hand_in out;
  if (!course) return out;
  const std::vector<const assignment*> holding = course->holding(problem);
  if (holding.empty()) return out;
  const assignment* in_time = nullptr;
  const assignment* least_late = nullptr;
  const assignment* last_refusing = nullptr;
  bool any_released = false;
  for (const assignment* a : holding) {
    if (!released(*a, now)) continue;
    any_released = true;
    const std::int64_t deadline = deadline_for(*a, account);
    if (now <= deadline) {
      if (!in_time || deadline > deadline_for(*in_time, account)) in_time = a;
    } else if (a->late.policy == late_policy::accept) {
      if (!least_late || deadline > deadline_for(*least_late, account)) least_late = a;
    } else if (!last_refusing || deadline > deadline_for(*last_refusing, account)) {
      last_refusing = a;
    }
  }
  if (!any_released) {
    out.what = hand_in::outcome::unreleased;
    return out;
  }
  if (in_time) {
    out.what = hand_in::outcome::in_time;
    out.assignment = in_time->name;
  } else if (least_late) {
    out.what = hand_in::outcome::late;
    out.assignment = least_late->name;
    out.late_seconds = now - deadline_for(*least_late, account);
  } else {
    const std::int64_t deadline = deadline_for(*last_refusing, account);
    out.what = hand_in::outcome::refused;
    out.refusal = fmt::format("the deadline of assignment '{}' for {} was {} ({} ago); it does not accept late "
                              "submissions, so this one was not queued (ask your instructor about an extension)",
                              last_refusing->name, problem, utc_text(deadline), late_text(now - deadline));
  }
  return out;
}

double kept_fraction(const late_rule& rule, std::int64_t late_seconds) {
  if (late_seconds <= 0) return 1;
  const double kept = 1 - rule.penalty_per_day / 100 * days_late(late_seconds);
  return std::clamp(kept, rule.floor / 100, 1.0);
}

standing standing_in(const assignment& a, const std::string& account, std::int64_t submitted_at) {
  standing s;
  s.late_seconds = std::max<std::int64_t>(0, submitted_at - deadline_for(a, account));
  if (s.late_seconds == 0) return s;
  s.counts = a.late.policy == late_policy::accept;
  s.kept = s.counts ? kept_fraction(a.late, s.late_seconds) : 0;
  return s;
}

} // namespace judge::course
