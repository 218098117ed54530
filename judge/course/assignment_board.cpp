#include "judge/course/assignment_board.hpp"

#include "judge/course/course_rules.hpp"
#include "judge/course/course_time.hpp"

#include <map>

namespace judge::course {

std::vector<problem_boards> build_assignment_boards(const assignment& a, const std::vector<store::handed_in>& handed_in,
                                                    const std::vector<std::pair<std::int64_t, solution_result>>& recorded,
                                                    const namer& shown_name, bool pseudonymous) {
  std::map<std::int64_t, const solution_result*> by_id;
  for (const auto& [id, r] : recorded) by_id[id] = &r;
  std::vector<problem_boards> out;
  for (const std::string& problem : a.problems) {
    std::vector<solution_result> counted;
    // (author as shown, graded_at) → how late: to tell which ranked entries were late.
    std::map<std::pair<std::string, std::string>, standing> late;
    for (const store::handed_in& h : handed_in) {
      if (h.problem != problem || !h.result_id) continue;
      const auto found = by_id.find(*h.result_id);
      if (found == by_id.end()) continue;
      const standing st = standing_in(a, h.account, parse_utc(h.submitted_at).value_or(0));
      if (!st.counts) continue;
      solution_result r = *found->second;
      r.author = shown_name(h.account);
      r.score *= st.kept;
      if (pseudonymous) {
        r.path.clear();
        r.content_hash.clear();
      }
      if (st.late_seconds > 0) late[{r.author, r.graded_at}] = st;
      counted.push_back(std::move(r));
    }
    problem_boards p{problem, build_leaderboard(counted), {}};
    for (const leaderboard& b : p.boards)
      for (const board_entry& e : b.entries)
        if (const auto it = late.find({e.author, e.graded_at}); it != late.end())
          p.late.push_back({e.author, it->second.late_seconds, it->second.kept});
    out.push_back(std::move(p));
  }
  return out;
}

std::vector<problem_boards> assignment_boards_from(results_db& store, const assignment& a, const namer& shown_name,
                                                   bool pseudonymous) {
  const std::vector<store::handed_in> rows = store::handed_in_to(store, a.problems);
  std::vector<std::pair<std::int64_t, solution_result>> recorded;
  for (const std::string& problem : a.problems)
    for (auto& entry : store.recorded_for(problem)) recorded.push_back(std::move(entry));
  return build_assignment_boards(a, rows, recorded, shown_name, pseudonymous);
}

} // namespace judge::course
