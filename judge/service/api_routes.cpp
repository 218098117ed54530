// The JSON API, /api/v1 (docs/api.md). Every call is authenticated; every refusal is a 4xx with
// {"error": "..."} saying what was wrong, and a refused submission is never queued.
#include "judge/service/queue/access_policy.hpp"
#include "judge/service/api_json.hpp"
#include "judge/base/file_input.hpp"
#include "judge/base/utc_time.hpp"
#include "judge/course/course_rules.hpp"
#include "judge/report/leaderboard.hpp"
#include "judge/problem/problem.hpp"
#include "judge/service/http/request_origin.hpp"
#include "judge/service/server.hpp"
#include "judge/sanitizer/sanitizer_json.hpp"
#include "judge/service/queue/submission_request.hpp"

namespace judge::service {

namespace {
using handler = std::function<void(const http_request&, http_response&, const account&)>;

void send_error(http_response& res, int status, const std::string& message) {
  send_json(res, status, {{"error", message}});
}

/// `body` runs for a request with a valid token; others get 401.
http_handler signed_in(service_state& state, handler body) {
  return [&state, body](const http_request& req, http_response& res) {
    const std::optional<account> who = state.authenticate(req);
    if (!who) {
      res.set_header("WWW-Authenticate", "Bearer");
      return send_error(res, 401, "sign in: send \"Authorization: Bearer <token>\" (tokens come from `judge users`)");
    }
    // A change made with the browser's cookie must come from the judge's own pages (http/request_origin.hpp).
    if (req.method != "GET" && credential_of(req) == credential::cookie) {
      const std::string why = cross_origin_reason(req);
      if (!why.empty()) return send_error(res, 403, "refused: " + why + "; a page of another site cannot act for you");
      if (req.get_header_value("Content-Type").rfind("application/json", 0) != 0)
        return send_error(res, 415,
                          "a change made with the sign-in cookie must be sent as Content-Type: application/json "
                          "(a page of another site cannot send that without the server's consent)");
    }
    body(req, res, *who);
  };
}

/// The body of a rejudge request: "" or {} for every submission, or {"since": "<ISO-8601 UTC>"}.
std::string rejudge_since(const std::string& body) {
  if (body.find_first_not_of(" \t\r\n") == std::string::npos) return "";
  const nlohmann::json j = nlohmann::json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) throw bad_request("the body is not a JSON object: send {} or {\"since\": \"2026-12-01T00:00:00Z\"}");
  for (const auto& item : j.items())
    if (item.key() != "since") throw bad_request("unknown field \"" + item.key() + "\" (known: since)");
  if (!j.contains("since")) return "";
  if (!j["since"].is_string()) throw bad_request("field since: not a string (give \"2026-12-01T00:00:00Z\")");
  try {
    return parse_before(j["since"].get<std::string>());
  } catch (const std::invalid_argument& e) {
    throw bad_request(std::string("field since: ") + e.what());
  }
}

std::size_t limit_of(const http_request& req) {
  if (!req.has_param("limit")) return 50;
  const std::string text = req.get_param_value("limit");
  if (text.empty() || text.size() > 4 || text.find_first_not_of("0123456789") != std::string::npos ||
      std::stoul(text) == 0 || std::stoul(text) > 1000)
    throw bad_request("limit must be a whole number from 1 to 1000");
  return std::stoul(text);
}
} // namespace

nlohmann::json submission_json(const submission& s, bool contest_view) {
  nlohmann::json out = {{"id", s.id},
                        {"problem", s.problem},
                        {"account", s.account},
                        {"state", state_name(s.now)},
                        {"submitted_at", s.submitted_at},
                        {"started_at", s.started_at},
                        {"finished_at", s.finished_at},
                        {"gpu", s.gpu},
                        {"error", s.error},
                        {"note", s.note},
                        {"node", s.node},
                        {"rejudge_of", s.rejudge_of > 0 ? nlohmann::json(s.rejudge_of) : nlohmann::json()},
                        {"device", s.device ? *s.device : nlohmann::json()},
                        {"assignment", s.assignment},
                        {"late_seconds", s.late_seconds},
                        {"sanitizer", explanation_state_name(s.sanitizer)},
                        {"result", nullptr}};
  if (const auto& result = shown_result(s, contest_view)) {
    out["result"] = *result;
    // The contest view leaves out the explanation of a hidden case (report/contest_view.hpp): so does this.
    if (!result->contains("sanitizer")) out["sanitizer"] = explanation_state_name(explanation_state::none);
  }
  return out;
}

nlohmann::json problem_json(const problem_entry& p) {
  return {{"name", p.name},         {"title", p.title},       {"unit", p.unit}, {"timed_cases", p.timed_cases},
          {"status", p.draft ? "draft" : "published"}, {"case_set", p.case_set}};
}

nlohmann::json account_json(const account& a) { return {{"name", a.name}, {"role", role_name(a.who)}}; }

nlohmann::json assignment_json(const course::assignment& a, const account& who) {
  const char* names = a.board.names == course::board_names::name ? "name" : "pseudonym";
  return {{"name", a.name},
          {"title", a.title},
          {"problems", a.problems},
          {"release", judge::utc_text(a.release)},
          {"deadline", judge::utc_text(a.deadline)},
          {"your_deadline", judge::utc_text(course::deadline_for(a, who.name))},
          {"late",
           {{"policy", a.late.policy == course::late_policy::accept ? "accept" : "refuse"},
            {"penalty_per_day", a.late.penalty_per_day},
            {"floor", a.late.floor}}},
          {"board",
           {{"public", a.board.is_public},
            {"names", names},
            {"url", a.board.is_public ? "/public/board/" + a.name : std::string()}}}};
}

nlohmann::json dashboard_json(const problem_dashboard& d, const std::string& case_set) {
  auto counts = [](const outcome_counts& c) {
    nlohmann::json out = nlohmann::json::object();
    for (std::size_t k = 0; k < outcome_names.size(); ++k) out[outcome_names[k]] = c[k];
    return out;
  };
  nlohmann::json queue = nlohmann::json::array();
  for (const waiting_submission& w : d.line)
    queue.push_back({{"id", w.place.s.id},
                     {"account", w.place.s.account},
                     {"state", state_name(w.place.s.now)},
                     {"position", w.place.position > 0 ? nlohmann::json(w.place.position) : nlohmann::json()},
                     {"waiting", w.place.waiting},
                     {"submitted_at", w.place.s.submitted_at},
                     {"age_seconds", w.age_seconds},
                     {"started_at", w.place.position > 0 ? std::string() : w.place.s.started_at},
                     {"held_seconds", w.held_seconds},
                     {"worker", w.place.position > 0 ? std::string() : w.place.s.worker},
                     {"note", w.place.s.note}});
  nlohmann::json submissions = nlohmann::json::array();
  for (const submission& s : d.submissions) {
    const double score = s.result ? s.result->value("score", 0.0) : 0.0;
    submissions.push_back({{"id", s.id},
                           {"account", s.account},
                           {"state", state_name(s.now)},
                           {"outcome", outcome_of(s)},
                           {"score", score > 0 ? nlohmann::json(score) : nlohmann::json()},
                           {"speed_unit", s.result ? s.result->value("speed_unit", "") : ""},
                           {"case_set", s.result ? s.result->value("case_set", "") : ""},
                           {"submitted_at", s.submitted_at},
                           {"finished_at", s.finished_at},
                           {"rejudge_of", s.rejudge_of > 0 ? nlohmann::json(s.rejudge_of) : nlohmann::json()},
                           {"assignment", s.assignment},
                           {"late_seconds", s.late_seconds}});
  }
  return {{"problem", d.problem},
          {"case_set", case_set},
          {"accounts", d.accounts},
          {"verdicts", {{"all", counts(d.all)}, {"latest", counts(d.latest)}}},
          {"queue", queue},
          {"submissions", submissions},
          {"similarity", "/similarity/" + d.problem}};
}

void add_api_routes(http_router& server, service_state& state) {
  server.get("/api/v1/me", signed_in(state, [](const http_request&, http_response& res, const account& who) {
               send_json(res, 200, account_json(who));
             }));

  server.get("/api/v1/problems", signed_in(state, [&state](const http_request&, http_response& res, const account& who) {
               nlohmann::json list = nlohmann::json::array();
               for (const problem_entry& p : state.problems_for(who)) list.push_back(problem_json(p));
               send_json(res, 200, list);
             }));

  server.get(R"(/api/v1/problems/([^/]+))",
             signed_in(state, [&state](const http_request& req, http_response& res, const account& who) {
               const problem_spec* spec = state.spec_for(who, req.matches[1]);
               if (!spec) return send_error(res, 404, "no problem \"" + std::string(req.matches[1]) + "\"");
               std::error_code unreadable;
               send_json(res, 200,
                         {{"name", spec->name},
                          {"title", spec->title},
                          {"status", spec->draft ? "draft" : "published"},
                          {"case_set", state.entry(spec->name) ? state.entry(spec->name)->case_set : ""},
                          {"statement", read_file(spec->statement, unreadable).value_or("")},
                          {"signature", spec->solve_declaration()},
                          {"baseline", spec->baseline.label},
                          {"starter", read_file(spec->dir / "starter.cu", unreadable).value_or("")}});
             }));

  server.post("/api/v1/submissions",
              signed_in(state, [&state](const http_request& req, http_response& res, const account& who) {
                const server_options& o = state.options();
                const auto admitted = state.submit(
                    who,
                    // What `who` may submit to is service_state::submit's to say (a draft, by name).
                    parse_submission_request(req.body, {o.max_files, o.max_file_bytes},
                                             [&](const std::string& name) { return state.spec(name) != nullptr; }));
                if (!admitted.closed.empty()) return send_error(res, 403, admitted.closed);
                if (admitted.refused) {
                  res.set_header("Retry-After", std::to_string(admitted.refused->retry_after));
                  return send_error(res, 429, admitted.refused->message);
                }
                res.set_header("Location", "/api/v1/submissions/" + std::to_string(admitted.id));
                send_json(res, 202,
                          {{"id", admitted.id},
                           {"state", "queued"},
                           {"assignment", admitted.mark.assignment},
                           {"late_seconds", admitted.mark.late_seconds}});
              }));

  server.post(R"(/api/v1/problems/([^/]+)/rejudge)",
              signed_in(state, [&state](const http_request& req, http_response& res, const account& who) {
                const std::string problem = req.matches[1];
                if (who.who != role::instructor)
                  return send_error(res, 403, "only an instructor may rejudge a problem's submissions");
                if (!state.spec(problem)) return send_error(res, 404, "no problem \"" + problem + "\"");
                const std::string since = rejudge_since(req.body);
                const std::vector<std::int64_t> ids = state.rejudge(problem, since);
                send_json(res, 202,
                          {{"problem", problem},
                           {"case_set", state.entry(problem) ? state.entry(problem)->case_set : ""},
                           {"since", since},
                           {"queued", ids}});
              }));

  server.get(R"(/api/v1/problems/([^/]+)/dashboard)",
             signed_in(state, [&state](const http_request& req, http_response& res, const account& who) {
               const std::string problem = req.matches[1];
               if (!can_see_dashboard(who)) return send_error(res, 403, "only instructors see a problem's dashboard");
               if (!state.spec(problem)) return send_error(res, 404, "no problem \"" + problem + "\"");
               const problem_dashboard d =
                   state.with_store([&](store_connection& c) { return load_dashboard(c.queue, problem); });
               send_json(res, 200, dashboard_json(d, state.entry(problem) ? state.entry(problem)->case_set : ""));
             }));

  server.get(R"(/api/v1/submissions/(\d{1,18}))",
             signed_in(state, [&state](const http_request& req, http_response& res, const account& who) {
               const std::int64_t id = std::stoll(req.matches[1]);
               const auto s = state.with_store([&](store_connection& c) { return c.queue.get(id); });
               // A student asking for another's submission learns nothing, not even that it exists.
               if (!s || !can_see(who, *s))
                 return send_error(res, 404, "no submission " + std::to_string(id) + " of yours");
               send_json(res, 200, submission_json(*s, contest_view_for(who, state.options().contest)));
             }));

  server.get("/api/v1/submissions",
             signed_in(state, [&state](const http_request& req, http_response& res, const account& who) {
               const std::size_t limit = limit_of(req);
               const auto of = listed_account(who, req.has_param("account") ? req.get_param_value("account") : "");
               if (!of) return send_error(res, 403, "students see only their own submissions");
               const auto list = state.with_store([&](store_connection& c) {
                 return of->empty() ? c.queue.recent(limit) : c.queue.of_account(*of, limit);
               });
               nlohmann::json out = nlohmann::json::array();
               for (const submission& s : list)
                 out.push_back(submission_json(s, contest_view_for(who, state.options().contest)));
               send_json(res, 200, out);
             }));

  server.get(R"(/api/v1/leaderboard/([^/]+))",
             signed_in(state, [&state](const http_request& req, http_response& res, const account& who) {
               const std::string problem = req.matches[1];
               if (!state.spec_for(who, problem)) return send_error(res, 404, "no problem \"" + problem + "\"");
               board_filter now;
               now.current_case_set = state.entry(problem) ? state.entry(problem)->case_set : "";
               const std::string board = state.with_store([&](store_connection& c) {
                 return leaderboard_json(problem, build_leaderboard(c.store, problem, now));
               });
               res.status = 200;
               res.set_content(board, "application/json");
             }));

  // The course's assignments a student may see (released), every one for an instructor.
  server.get("/api/v1/assignments",
             signed_in(state, [&state](const http_request&, http_response& res, const account& who) {
               nlohmann::json list = nlohmann::json::array();
               if (const auto course = state.course())
                 for (const course::assignment& a : course->assignments)
                   if (can_see_assignment(who, a, epoch_seconds_now())) list.push_back(assignment_json(a, who));
               send_json(res, 200, list);
             }));
}

} // namespace judge::service
