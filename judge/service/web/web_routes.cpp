// The web UI's routes: who is asking (the judge_token cookie), what they may see, and which page shows
// it (web_pages.hpp renders; nothing here makes markup). A submission from the form goes through the
// same checks and rate limits as one from the API (queue/submission_request.hpp), and into the same queue.
#include "judge/service/web/web_routes.hpp"

#include "judge/service/queue/access_policy.hpp"
#include "judge/base/file_input.hpp"
#include "judge/base/utc_time.hpp"
#include "judge/course/assignment_board.hpp"
#include "judge/course/course_rules.hpp"
#include "judge/course/gradebook.hpp"
#include "judge/course/pseudonym.hpp"
#include "judge/problem/secret.hpp"
#include "judge/store/handed_in.hpp"
#include "judge/report/leaderboard.hpp"
#include "judge/service/web/markdown.hpp"
#include "judge/problem/problem.hpp"
#include "judge/report/report_json.hpp"
#include "judge/service/http/request_origin.hpp"
#include "judge/service/queue/similarity_sources.hpp"
#include "judge/service/queue/submission_request.hpp"
#include "judge/service/web/web_assets.hpp"
#include "judge/service/web/web_pages.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <regex>

namespace judge::service {

namespace {
constexpr const char* token_cookie = "judge_token";

/// Headers every page carries: the pages load nothing from elsewhere and run no inline script, so the
/// browser is told to refuse both; no page is cached (they hold a learner's results).
void send_page(http_response& res, int status, const std::string& html_text) {
  res.status = status;
  res.set_header("Content-Security-Policy", "default-src 'none'; style-src 'self'; script-src 'self'; "
                                            "img-src 'self'; connect-src 'self'; form-action 'self'; "
                                            "frame-ancestors 'none'; base-uri 'none'");
  res.set_header("X-Content-Type-Options", "nosniff");
  res.set_header("Referrer-Policy", "same-origin");
  res.set_header("Cache-Control", "no-store");
  res.set_content(html_text, "text/html; charset=utf-8");
}

/// After a form: 303 See Other, so that reloading the page does not post the form again.
void see_other(http_response& res, const std::string& where) {
  res.status = 303;
  res.set_header("Location", where);
  res.set_header("Cache-Control", "no-store");
}

/// Why a form that changes something is refused, or "" when it is not: it came from another origin (the
/// cookie is SameSite=Strict, but another port or subdomain of this host is the same site), or, signed
/// in, it lacks the account's form token (http/request_origin.hpp), which only the judge's own page holds.
std::string form_refusal(const http_request& req, const std::optional<account>& who) {
  const std::string why = cross_origin_reason(req);
  if (!why.empty()) return "A form from another site was refused: " + why + ".";
  if (!who) return "";
  const std::string sent =
      req.has_file("form_token") ? req.get_file_value("form_token").content : req.get_param_value("form_token");
  if (!same_token(sent, who->form_token))
    return "This form is out of date (it lacks the token of your sign-in): reload the page and send it again.";
  return "";
}

/// The cookie that carries the token: HttpOnly (no script reads it), SameSite=Strict, and Secure when a
/// TLS proxy in front says the browser came over https (docs/deploy.md sets X-Forwarded-Proto).
std::string token_cookie_header(const http_request& req, const std::string& token, bool clear) {
  std::string cookie = fmt::format("{}={}; Path=/; HttpOnly; SameSite=Strict", token_cookie, clear ? "" : token);
  if (clear) cookie += "; Max-Age=0";
  if (req.get_header_value("X-Forwarded-Proto") == "https") cookie += "; Secure";
  return cookie;
}

using page_handler = std::function<void(const account&, const http_request&, http_response&)>;

/// A page for signed-in accounts only: anyone else is sent to the sign-in page.
http_handler signed_in(service_state& state, page_handler handler) {
  return [&state, handler = std::move(handler)](const http_request& req, http_response& res) {
    const std::optional<account> who = state.authenticate(req);
    if (!who) return see_other(res, "/");
    handler(*who, req, res);
  };
}

problem_view view_of(const problem_spec& spec, const problem_entry& entry) {
  std::error_code ignored;
  const std::string statement = read_file(spec.statement, ignored).value_or("");
  return {entry, statement.empty() ? "<p>This problem has no statement.</p>\n" : markdown_to_html(statement),
          spec.solve_declaration()};
}

void unknown_problem(const account& who, const std::string& name, http_response& res) {
  send_page(res, 404, error_page(who, "Unknown problem", "There is no problem called " + name + " on this server."));
}

std::string starter_of(const problem_spec& spec) {
  std::error_code ignored;
  return read_file(spec.dir / "starter.cu", ignored).value_or("");
}

/// The form's files: the uploads when there are any, else the pasted source under its file name.
std::vector<source_file> files_of_form(const http_request& req) {
  std::vector<source_file> files;
  const auto uploads = req.files.equal_range("files");
  for (auto it = uploads.first; it != uploads.second; ++it)
    if (!it->second.filename.empty()) files.push_back({it->second.filename, it->second.content});
  if (files.empty() && req.has_file("source") && !req.get_file_value("source").content.empty())
    files.push_back({req.get_file_value("file_name").content, req.get_file_value("source").content});
  return files;
}

/// The API's message in the form's words: "files[1]: ..." names a field of the API's JSON, which the form
/// has not; the file is named by its name instead.
std::string form_wording(const std::string& message, const std::vector<source_file>& files) {
  if (message.rfind("no files:", 0) == 0) return "nothing to submit: paste your solution or choose files to upload";
  static const std::regex position(R"(^files\[(\d+)\]: )");
  std::smatch m;
  if (!std::regex_search(message, m, position)) return message;
  const std::size_t i = std::stoul(m[1]);
  const std::string name = i < files.size() && !files[i].name.empty() ? "\"" + files[i].name + "\"" : "a file";
  std::string rest = m.suffix().str();
  // "file name "x" is not allowed" and ""x" is 300 KiB" already name it.
  if (rest.find("\"" + (i < files.size() ? files[i].name : std::string()) + "\"") != std::string::npos) return rest;
  return name + ": " + rest;
}

void post_submission(service_state& state, const account& who, const http_request& req, http_response& res) {
  const std::string problem = req.matches[1];
  const problem_spec* spec = state.spec_for(who, problem);
  if (!spec) return unknown_problem(who, problem, res);
  submit_form form{problem,
                   "solution.cu",
                   "",
                   "",
                   state.options().max_files,
                   state.options().max_file_bytes,
                   spec->solve_declaration()};
  if (req.has_file("file_name")) form.file_name = req.get_file_value("file_name").content;
  if (req.has_file("source")) form.source = req.get_file_value("source").content;
  if (const std::string why = form_refusal(req, who); !why.empty())
    return send_page(res, 403, error_page(who, "Refused", why));
  submission_request request{problem, files_of_form(req)};
  // A form carries any bytes; the API's JSON carries UTF-8 only, and a stored submission is shown through
  // it, so the form is held to the same.
  for (const source_file& f : request.files) {
    try {
      (void)nlohmann::json({f.name, f.content}).dump();
    } catch (const nlohmann::json::type_error&) {
      form.error = "a file or a file name is not UTF-8 text; save it as UTF-8 and submit again";
      form.source.clear();
      return send_page(res, 400, submit_page(who, form));
    }
  }
  service_state::admission admitted;
  try {
    // The API's checks and limits (service_state::submit): one place says what a submission may be.
    admitted = state.submit(who, request);
  } catch (const bad_request& e) {
    form.error = form_wording(e.what(), request.files);
    return send_page(res, 400, submit_page(who, form));
  } catch (const http_unavailable& e) {
    form.error = e.what();
    res.set_header("Retry-After", "30");
    return send_page(res, 503, submit_page(who, form));
  }
  if (!admitted.closed.empty()) {
    form.error = admitted.closed;
    return send_page(res, 403, submit_page(who, form));
  }
  if (admitted.refused) {
    form.error = admitted.refused->message;
    res.set_header("Retry-After", std::to_string(admitted.refused->retry_after));
    return send_page(res, 429, submit_page(who, form));
  }
  see_other(res, fmt::format("/submissions/{}", admitted.id));
}

void no_assignment(const std::optional<account>& who, const std::string& name, http_response& res) {
  send_page(res, 404, error_page(who, "Unknown assignment", "There is no assignment called " + name + " here."));
}

/// The assignment `name` of the course as `who` may see it now (nullptr: none, or not yet released).
const course::assignment* visible_assignment(const course::course_spec* course, const account& who,
                                             const std::string& name) {
  const course::assignment* a = course ? course->find(name) : nullptr;
  return a && can_see_assignment(who, *a, epoch_seconds_now()) ? a : nullptr;
}

course::gradebook gradebook_of(service_state& state, const course::course_spec& course, const course::assignment& a) {
  return state.with_store([&](store_connection& c) {
    std::vector<std::string> students, instructors;
    for (const account& u : c.users.list()) (u.who == role::student ? students : instructors).push_back(u.name);
    return course::build_gradebook(course, a, students, instructors, store::handed_in_to(c.store, a.problems));
  });
}

void add_course_routes(http_router& server, service_state& state) {
  server.get("/assignments", signed_in(state, [&state](const account& who, const http_request&, http_response& res) {
               std::vector<const course::assignment*> shown;
               const auto course = state.course();
               const std::int64_t now = epoch_seconds_now();
               if (course)
                 for (const course::assignment& a : course->assignments)
                   if (can_see_assignment(who, a, now)) shown.push_back(&a);
               send_page(res, 200, assignments_page(who, shown, now));
             }));
  server.get(R"(/assignments/([A-Za-z0-9_.-]+)/board)",
             signed_in(state, [&state](const account& who, const http_request& req, http_response& res) {
               const auto course = state.course();
               const course::assignment* a = visible_assignment(course.get(), who, req.matches[1]);
               if (!a) return no_assignment(who, req.matches[1], res);
               const auto boards = state.with_store([&](store_connection& c) {
                 return course::assignment_boards_from(
                     c.store, *a, [](const std::string& name) { return name; }, false);
               });
               send_page(res, 200, assignment_board_page(who, *a, boards, state.no_gpu_reason()));
             }));
  // The board a projector shows: no sign-in, only where the course file makes it public, and only once
  // released; names or stable pseudonyms, as the course file says.
  server.get(R"(/public/board/([A-Za-z0-9_.-]+))", [&state](const http_request& req, http_response& res) {
    const auto course = state.course();
    const course::assignment* a = course ? course->find(req.matches[1]) : nullptr;
    if (!a || !a->board.is_public || !course::released(*a, epoch_seconds_now()))
      return send_page(res, 404,
                       error_page(std::nullopt, "No public board",
                                  "There is no public board called " + std::string(req.matches[1]) + " here."));
    const bool pseudonymous = a->board.names == course::board_names::pseudonym;
    const judge_secret secret = pseudonymous ? load_or_create_secret(secret_path()) : judge_secret{};
    const auto boards = state.with_store([&](store_connection& c) {
      return course::assignment_boards_from(
          c.store, *a,
          [&](const std::string& name) { return pseudonymous ? course::pseudonym(secret, name) : name; },
          pseudonymous);
    });
    send_page(res, 200, assignment_board_page(std::nullopt, *a, boards, state.no_gpu_reason()));
  });
  server.get(R"(/assignments/([A-Za-z0-9_.-]+)/gradebook)",
             signed_in(state, [&state](const account& who, const http_request& req, http_response& res) {
               if (!can_see_gradebook(who))
                 return send_page(res, 403,
                                  error_page(who, "For instructors", "Only instructors see an assignment's gradebook."));
               const auto course = state.course();
               const course::assignment* a = visible_assignment(course.get(), who, req.matches[1]);
               if (!a) return no_assignment(who, req.matches[1], res);
               send_page(res, 200, gradebook_page(who, *a, gradebook_of(state, *course, *a)));
             }));
  server.get(R"(/assignments/([A-Za-z0-9_.-]+)/gradebook\.csv)",
             signed_in(state, [&state](const account& who, const http_request& req, http_response& res) {
               if (!can_see_gradebook(who))
                 return send_page(res, 403,
                                  error_page(who, "For instructors", "Only instructors see an assignment's gradebook."));
               const auto course = state.course();
               const course::assignment* a = visible_assignment(course.get(), who, req.matches[1]);
               if (!a) return no_assignment(who, req.matches[1], res);
               res.set_header("Cache-Control", "no-store");
               res.set_header("X-Content-Type-Options", "nosniff");
               res.set_header("Content-Disposition", "attachment; filename=\"" + a->name + "-gradebook.csv\"");
               res.set_content(course::gradebook_csv(gradebook_of(state, *course, *a)), "text/csv; charset=utf-8");
             }));
}

void not_for_students(const account& who, http_response& res) {
  send_page(res, 403,
            error_page(who, "For instructors",
                       "Only instructors see the dashboard: it shows everyone's submissions and the queue."));
}

void add_dashboard_routes(http_router& server, service_state& state) {
  server.get("/dashboard", signed_in(state, [&state](const account& who, const http_request&, http_response& res) {
               if (!can_see_dashboard(who)) return not_for_students(who, res);
               const queue_overview overview =
                   state.with_store([](store_connection& c) { return load_overview(c.queue); });
               send_page(res, 200, dashboard_index_page(who, state.problems_for(who), overview));
             }));
  server.get(R"(/dashboard/([A-Za-z0-9_.-]+))",
             signed_in(state, [&state](const account& who, const http_request& req, http_response& res) {
               if (!can_see_dashboard(who)) return not_for_students(who, res);
               const std::string problem = req.matches[1];
               if (!state.spec(problem)) return unknown_problem(who, problem, res);
               const problem_dashboard d =
                   state.with_store([&](store_connection& c) { return load_dashboard(c.queue, problem); });
               send_page(res, 200, dashboard_page(who, d));
             }));
}

void show_submission(service_state& state, const account& who, const http_request& req, http_response& res) {
  const std::string number = req.matches[1];
  std::optional<submission> s;
  if (number.size() <= 18) s = state.with_store([&](store_connection& c) { return c.queue.get(std::stoll(number)); });
  // Another student's submission is as absent as one that does not exist: its number says nothing.
  if (!s || !can_see(who, *s))
    return send_page(res, 404, error_page(who, "No such submission", "You have no submission " + number + "."));
  const std::optional<nlohmann::json>& shown = shown_result(*s, contest_view_for(who, state.options().contest));
  std::optional<solution_result> result;
  if (shown) result = record_from_json(*shown);
  const problem_spec* spec = state.spec(s->problem);
  send_page(res, 200, submission_page(who, *s, result, spec ? spec->baseline.label : "baseline"));
}
} // namespace

void add_web_routes(http_router& server, service_state& state) {
  server.get(R"(/assets/([A-Za-z0-9_.-]+))", [](const http_request& req, http_response& res) {
    const std::string name = req.matches[1];
    res.set_header("X-Content-Type-Options", "nosniff");
    res.set_header("Cache-Control", "no-cache");
    if (name == "leaderboard.css") return res.set_content(leaderboard_css(), "text/css; charset=utf-8");
    const web_asset* asset = find_web_asset(name);
    if (!asset) {
      res.status = 404;
      return res.set_content("no such file\n", "text/plain; charset=utf-8");
    }
    res.set_content(std::string(asset->body), std::string(asset->content_type).c_str());
  });

  // Browsers ask for it on every site: the judge's mark rather than a 404 in every log.
  server.get("/favicon.ico", [](const http_request&, http_response& res) {
    const web_asset* icon = find_web_asset("favicon.svg");
    res.set_header("Cache-Control", "max-age=86400");
    res.set_content(std::string(icon->body), std::string(icon->content_type));
  });
  server.get("/", [&state](const http_request& req, http_response& res) {
    if (state.authenticate(req)) return see_other(res, "/problems");
    send_page(res, 200, signin_page(""));
  });
  server.post("/signin", [&state](const http_request& req, http_response& res) {
    if (const std::string why = form_refusal(req, std::nullopt); !why.empty())
      return send_page(res, 403, signin_page(why));
    const std::string token = req.get_param_value("token");
    const auto who = state.with_store([&](store_connection& c) { return c.users.authenticate(token); });
    if (!who)
      return send_page(res, 401,
                       signin_page("That token is not known here. Check it (it starts with jt_), or ask "
                                   "your instructor for a new one."));
    res.set_header("Set-Cookie", token_cookie_header(req, token, false));
    see_other(res, "/problems");
  });
  server.post("/signout", [&state](const http_request& req, http_response& res) {
    // Signing out another site's visitor is a nuisance, not harmless: refused like any other change.
    const std::optional<account> who = state.authenticate(req);
    if (const std::string why = form_refusal(req, who); !why.empty())
      return send_page(res, 403, error_page(who, "Refused", why));
    res.set_header("Set-Cookie", token_cookie_header(req, "", true));
    see_other(res, "/");
  });

  server.get("/problems", signed_in(state, [&state](const account& who, const http_request&, http_response& res) {
               send_page(res, 200, problems_page(who, state.problems_for(who)));
             }));
  server.get(R"(/problems/([A-Za-z0-9_.-]+))",
             signed_in(state, [&state](const account& who, const http_request& req, http_response& res) {
               const problem_spec* spec = state.spec_for(who, req.matches[1]);
               const problem_entry* entry = state.entry(req.matches[1]);
               if (!spec || !entry) return unknown_problem(who, req.matches[1], res);
               send_page(res, 200, problem_page(who, view_of(*spec, *entry)));
             }));
  server.get(R"(/problems/([A-Za-z0-9_.-]+)/submit)",
             signed_in(state, [&state](const account& who, const http_request& req, http_response& res) {
               const problem_spec* spec = state.spec_for(who, req.matches[1]);
               if (!spec) return unknown_problem(who, req.matches[1], res);
               send_page(res, 200,
                         submit_page(who, {spec->name, "solution.cu", starter_of(*spec), "", state.options().max_files,
                                           state.options().max_file_bytes, spec->solve_declaration()}));
             }));
  server.post(R"(/problems/([A-Za-z0-9_.-]+)/submit)",
              signed_in(state, [&state](const account& who, const http_request& req, http_response& res) {
                post_submission(state, who, req, res);
              }));
  server.get(R"(/submissions/([0-9]+))",
             signed_in(state, [&state](const account& who, const http_request& req, http_response& res) {
               show_submission(state, who, req, res);
             }));
  server.get(R"(/board/([A-Za-z0-9_.-]+))",
             signed_in(state, [&state](const account& who, const http_request& req, http_response& res) {
               const std::string problem = req.matches[1];
               if (!state.spec_for(who, problem)) return unknown_problem(who, problem, res);
               board_filter now;
               now.current_case_set = state.entry(problem)->case_set;
               const auto boards =
                   state.with_store([&](store_connection& c) { return build_leaderboard(c.store, problem, now); });
               send_page(res, 200, board_page(who, problem, boards, state.no_gpu_reason()));
             }));
  server.get(R"(/similarity/([A-Za-z0-9_.-]+))",
             signed_in(state, [&state](const account& who, const http_request& req, http_response& res) {
               const std::string problem = req.matches[1];
               // Students are not told it exists: it compares other people's sources.
               if (who.who != role::instructor || !state.spec(problem)) return unknown_problem(who, problem, res);
               double threshold = 0.8;
               if (req.has_param("threshold")) {
                 const std::string text = req.get_param_value("threshold");
                 char* end = nullptr;
                 threshold = std::strtod(text.c_str(), &end);
                 if (text.empty() || *end != '\0' || !(threshold >= 0 && threshold <= 1))
                   return send_page(res, 400,
                                    error_page(who, "Bad threshold",
                                               "threshold=" + text + " is not a fraction from 0 to 1 (e.g. 0.8)."));
               }
               std::error_code no_starter;
               const std::string starter = read_file(state.spec(problem)->dir / "starter.cu", no_starter).value_or("");
               const auto sources =
                   state.with_store([&](store_connection& c) { return similarity_sources(c.queue, problem); });
               send_page(res, 200,
                         similarity_page(who, problem, sources.size(), threshold,
                                         similar_pairs(sources, starter, threshold)));
             }));
  add_dashboard_routes(server, state);
  server.get("/history", signed_in(state, [&state](const account& who, const http_request&, http_response& res) {
               const std::string of = listed_account(who, "").value_or(who.name);
               const bool everyone = of.empty();
               const auto list = state.with_store(
                   [&](store_connection& c) { return everyone ? c.queue.recent(200) : c.queue.of_account(of, 200); });
               send_page(res, 200, history_page(who, list, everyone));
             }));
  add_course_routes(server, state);
}

} // namespace judge::service
