// The JSON documents of the API (docs/api.md), one function each, shared by the API routes and the web
// pages that show the same facts.
#pragma once

#include "judge/course/course.hpp"
#include "judge/service/queue/accounts.hpp"
#include "judge/service/queue/service_state.hpp"
#include "judge/service/queue/submission_queue.hpp"

#include <nlohmann/json.hpp>

namespace judge::service {

/// {"id","problem","account","state","submitted_at","started_at","finished_at","gpu","error","note","node",
/// "device","assignment","late_seconds","sanitizer" (where its explanation stands: "none", "pending", "done",
/// "over_budget", "failed"),"result"};
/// `contest_view`: the result as a student in a contest sees it (report/contest_view.hpp).
nlohmann::json submission_json(const submission& s, bool contest_view);
/// {"name","title","unit","timed_cases"}
nlohmann::json problem_json(const problem_entry& p);
/// {"name","role"}
nlohmann::json account_json(const account& a);
/// {"name","title","problems","release","deadline","your_deadline" (with `who`'s extension),
///  "late":{"policy","penalty_per_day","floor"},"board":{"public","names","url"}}
nlohmann::json assignment_json(const course::assignment& a, const account& who);

} // namespace judge::service
