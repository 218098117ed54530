// Who sees what, in one place for the API and the web pages: a student sees only their own submissions,
// an instructor everyone's; in a contest a student sees a failed hidden case only by its name, shape and
// verdict (report/contest_view.hpp, which `judge run --contest` shows too). The store keeps every detail;
// this decides what is shown.
#pragma once

#include "judge/course/course.hpp"
#include "judge/service/queue/accounts.hpp"
#include "judge/service/queue/submission_queue.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace judge::service {

/// Whether `viewer` may see submission `s`: its own author, or an instructor. To anyone else it is as
/// absent as one that does not exist (its number says nothing).
bool can_see(const account& viewer, const submission& s);

/// Whether `viewer` may see a problem, `draft` or published: a draft only an instructor (its statement,
/// board and submissions alike); a student finds it as absent as an unknown one.
bool can_see_draft(const account& viewer, bool draft);

/// Whose submissions a list for `viewer` holds when `asked` names an account ("" for everyone's): a
/// student's own, whatever was asked for them, or nullopt when a student asked for another's (refused);
/// an instructor's, what was asked. An empty answer means everyone's.
std::optional<std::string> listed_account(const account& viewer, const std::string& asked);

/// Whether `viewer` may see `problem` at `now` [s since the epoch] under `course` (null: no course): an
/// instructor always; a student once an assignment holding it is released, or at once when none holds
/// it (course/course_rules.hpp). To a student a problem not yet released is as absent as one that does
/// not exist.
bool can_see_problem(const account& viewer, const course::course_spec* course, const std::string& problem,
                     std::int64_t now);

/// Whether `viewer` may see assignment `a` (its page, its board) at `now`: an instructor always, a
/// student once it is released.
bool can_see_assignment(const account& viewer, const course::assignment& a, std::int64_t now);

/// Whether `viewer` may see an assignment's gradebook: instructors only.
bool can_see_gradebook(const account& viewer);

/// Whether `viewer` may see a problem's dashboard (every submission, the queue, the verdicts): instructors only.
bool can_see_dashboard(const account& viewer);

/// Whether `viewer` sees results in contest view: a student on a contest server.
bool contest_view_for(const account& viewer, bool contest);

/// The stored result of `s` to show: its contest view (stored beside it when it was graded) or the whole.
const std::optional<nlohmann::json>& shown_result(const submission& s, bool contest_view);

} // namespace judge::service
