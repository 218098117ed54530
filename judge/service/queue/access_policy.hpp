// Who sees what, in one place for the API and the web pages: a student sees only their own submissions,
// an instructor everyone's; in a contest a student sees a failed hidden case only by its name, shape and
// verdict (report/contest_view.hpp, which `judge run --contest` shows too). The store keeps every detail;
// this decides what is shown.
#pragma once

#include "judge/service/queue/accounts.hpp"
#include "judge/service/queue/submission_queue.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace judge::service {

/// Whether `viewer` may see submission `s`: its own author, or an instructor. To anyone else it is as
/// absent as one that does not exist (its number says nothing).
bool can_see(const account& viewer, const submission& s);

/// Whose submissions a list for `viewer` holds when `asked` names an account ("" for everyone's): a
/// student's own, whatever was asked for them, or nullopt when a student asked for another's (refused);
/// an instructor's, what was asked. An empty answer means everyone's.
std::optional<std::string> listed_account(const account& viewer, const std::string& asked);

/// Whether `viewer` sees results in contest view: a student on a contest server.
bool contest_view_for(const account& viewer, bool contest);

/// The stored result of `s` to show: its contest view (stored beside it when it was graded) or the whole.
const std::optional<nlohmann::json>& shown_result(const submission& s, bool contest_view);

} // namespace judge::service
