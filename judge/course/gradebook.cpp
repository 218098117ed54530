#include "judge/course/gradebook.hpp"

#include "judge/course/course_rules.hpp"
#include "judge/course/course_time.hpp"

#include <algorithm>
#include <map>

namespace judge::course {

namespace {
/// How good a verdict is for the gradebook: the higher, the better; accepted ones by score apart.
int verdict_rank(const std::string& v) {
  static const std::vector<std::string> worst_first = {"IE", "CE", "RTE", "TLE", "WA", "NR", "AC"};
  const auto it = std::find(worst_first.begin(), worst_first.end(), v);
  return it == worst_first.end() ? -1 : static_cast<int>(it - worst_first.begin());
}

bool better(const gradebook_cell& a, const gradebook_cell& b) {
  if (verdict_rank(a.verdict) != verdict_rank(b.verdict)) return verdict_rank(a.verdict) > verdict_rank(b.verdict);
  return a.score > b.score;
}

/// The result document's verdict: "NR" for a solution compiled but not run (record/record_json.hpp).
std::string verdict_of(const nlohmann::json& result) { return result.value("verdict", "IE"); }
} // namespace

bool gradebook_row::submitted() const {
  return std::any_of(cells.begin(), cells.end(), [](const gradebook_cell& c) { return c.submissions > 0; });
}

gradebook build_gradebook(const course_spec& course, const assignment& a, const std::vector<std::string>& students,
                          const std::vector<std::string>& instructors, const std::vector<store::handed_in>& handed_in) {
  gradebook g;
  g.assignment = a.name;
  g.problems = a.problems;
  std::map<std::string, std::size_t> row_of;
  auto row_for = [&](const std::string& account) -> gradebook_row& {
    const auto [it, added] = row_of.emplace(account, g.rows.size());
    if (added) g.rows.push_back({account, course.full_name(account), std::vector<gradebook_cell>(a.problems.size())});
    return g.rows[it->second];
  };
  std::vector<std::string> roster = students;
  std::sort(roster.begin(), roster.end());
  for (const std::string& s : roster) row_for(s);
  for (const store::handed_in& h : handed_in) {
    const auto problem = std::find(a.problems.begin(), a.problems.end(), h.problem);
    if (problem == a.problems.end()) continue;
    if (std::find(instructors.begin(), instructors.end(), h.account) != instructors.end()) continue;
    gradebook_cell& cell = row_for(h.account).cells[static_cast<std::size_t>(problem - a.problems.begin())];
    ++cell.submissions;
    const standing st = standing_in(a, h.account, parse_utc(h.submitted_at).value_or(0));
    if (st.late_seconds > 0) ++cell.late_submissions;
    if (!st.counts || !h.result) continue;
    gradebook_cell candidate = cell;
    candidate.graded = true;
    candidate.verdict = verdict_of(*h.result);
    candidate.unit = h.result->value("speed_unit", "");
    candidate.score = candidate.verdict == "AC" ? h.result->value("score", 0.0) * st.kept : 0;
    candidate.late_seconds = st.late_seconds;
    candidate.kept = st.kept;
    candidate.submission = h.id;
    if (!cell.graded || better(candidate, cell)) cell = candidate;
  }
  return g;
}

} // namespace judge::course
