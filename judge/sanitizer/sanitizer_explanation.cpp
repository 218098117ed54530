#include "judge/sanitizer/sanitizer_explanation.hpp"

#include <algorithm>

namespace judge {

explanation_state state_after(const std::vector<sanitizer_run>& runs) {
  const auto stopped = [](const sanitizer_run& r) { return r.state == sanitizer_state::timed_out; };
  const auto unchecked = [](const sanitizer_run& r) {
    return r.state == sanitizer_state::failed || r.state == sanitizer_state::not_available;
  };
  if (std::any_of(runs.begin(), runs.end(), stopped)) return explanation_state::over_budget;
  if (runs.empty() || std::all_of(runs.begin(), runs.end(), unchecked)) return explanation_state::failed;
  return explanation_state::done;
}

sanitizer_explanation
explanation_of_runs(const std::vector<std::pair<std::string, std::vector<sanitizer_run>>>& cases) {
  sanitizer_explanation e;
  const std::pair<std::string, std::vector<sanitizer_run>>* explained = nullptr;
  for (const auto& c : cases) {
    if (c.second.empty()) continue;
    if (explained) return {};
    explained = &c;
  }
  if (!explained) return e;
  e.case_name = explained->first;
  for (const sanitizer_run& r : explained->second) e.tools.push_back(r.tool);
  e.state = state_after(explained->second);
  if (e.state == explanation_state::failed) e.detail = explained->second.front().detail;
  return e;
}

} // namespace judge
