// The JSON documents of the API (docs/api.md), one function each, shared by the API routes and the web
// pages that show the same facts.
#pragma once

#include "judge/course/course.hpp"
#include "judge/service/queue/accounts.hpp"
#include "judge/service/queue/problem_dashboard.hpp"
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

/// {"problem","case_set","accounts","verdicts":{"all":{outcome: count},"latest":{...}},
///  "queue":[{"id","account","state","position","waiting","submitted_at","age_seconds","started_at",
///  "held_seconds","worker","note"}],"submissions":[{"id","account","state","outcome","score","speed_unit",
///  "case_set","submitted_at","finished_at","rejudge_of","assignment","late_seconds"}],"similarity"}
/// (docs/api.md); `case_set`: the problem's cases now.
nlohmann::json dashboard_json(const problem_dashboard& d, const std::string& case_set);

} // namespace judge::service
