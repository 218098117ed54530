#include "judge/service/queue/access_policy.hpp"

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

const std::optional<nlohmann::json>& shown_result(const submission& s, bool contest_view) {
  return contest_view ? s.contest_result : s.result;
}

} // namespace judge::service
