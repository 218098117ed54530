// The instructors' dashboard on a real `judge serve` on 127.0.0.1 (label cpu): the API's document and
// the pages show every submission to a problem (compile errors and those compiled but not run included),
// the queue with each waiting one's place and age, and the verdicts; students are refused with 403 and
// a message. The server only queues (--accept-only); a stand-in grader finishes submissions in the store,
// as the workers would.
#include "catch.hpp"
#include "judge/service/queue/submission_queue.hpp"
#include "judge/store/results_db.hpp"
#include "judge_server.hpp"
#include "results_fixtures.hpp"
#include "text_match.hpp"

#include <nlohmann/json.hpp>

using judge_test::add_account;
using judge_test::contains;
using judge_test::judge_server;
using judge_test::temp_folder;
using nlohmann::json;

namespace {
json body_of(const httplib::Result& r) {
  REQUIRE(r);
  INFO(r->body);
  return json::parse(r->body);
}

std::int64_t submit(const judge_server& server, const std::string& token, const std::string& text) {
  const json body = {{"problem", "matmul"}, {"files", json::array({{{"name", "a.cu"}, {"content", text}}})}};
  const json r = body_of(server.client(token).Post("/api/v1/submissions", body.dump(), "application/json"));
  return r.at("id").get<std::int64_t>();
}

judge::solution_result with_verdict(const std::string& author, judge::verdict v, bool not_run) {
  judge::solution_result r = judge::testing::accepted_result(author, 1500);
  r.v = v;
  r.compiled_only = not_run;
  if (v != judge::verdict::accepted || not_run) r.score = 0;
  return r;
}

struct dashboard_class {
  temp_folder dir;
  std::filesystem::path db = dir / "judge.db";
  std::string alice = add_account(db, "alice", "student");
  std::string bob = add_account(db, "bob", "student");
  std::string carol = add_account(db, "carol", "student");
  std::string teacher = add_account(db, "teacher", "instructor");
  judge_server server{db, {"--accept-only"}};

  /// alice: compiled but not run, then accepted; bob: a compile error; carol: still queued.
  void hand_in() {
    const std::int64_t alice_first = submit(server, alice, "// 1"), alice_second = submit(server, alice, "// 2");
    const std::int64_t bobs = submit(server, bob, "// b");
    submit(server, carol, "// c");
    judge::results_db store(db);
    judge::service::submission_queue queue(store);
    CHECK(queue.finish(alice_first, with_verdict("alice", judge::verdict::accepted, true), false, ""));
    CHECK(queue.finish(alice_second, with_verdict("alice", judge::verdict::accepted, false), true, "GPU-1"));
    CHECK(queue.finish(bobs, with_verdict("bob", judge::verdict::compile_error, false), true, ""));
  }
};
} // namespace

TEST_CASE("the dashboard's API document has every submission, the queue and the verdicts, for instructors only",
          "[service][dashboard]") {
  dashboard_class c;
  c.hand_in();
  const auto answer = c.server.client(c.teacher).Get("/api/v1/problems/matmul/dashboard");
  const json d = body_of(answer);
  CHECK(answer->status == 200);
  CHECK(d["problem"] == "matmul");
  CHECK(d["case_set"].get<std::string>().size() == 12);
  CHECK(d["accounts"] == 3);
  CHECK(d["similarity"] == "/similarity/matmul");
  CHECK(d["verdicts"]["all"] == json({{"AC", 1},
                                      {"NR", 1},
                                      {"WA", 0},
                                      {"TLE", 0},
                                      {"RTE", 0},
                                      {"CE", 1},
                                      {"IE", 0},
                                      {"failed", 0},
                                      {"waiting", 1}}));
  CHECK(d["verdicts"]["latest"]["AC"] == 1);
  CHECK(d["verdicts"]["latest"]["NR"] == 0);
  CHECK(d["verdicts"]["latest"]["CE"] == 1);
  CHECK(d["verdicts"]["latest"]["waiting"] == 1);

  const json& submissions = d["submissions"];
  REQUIRE(submissions.size() == 4);
  CHECK(submissions[0]["account"] == "carol");
  CHECK(submissions[0]["outcome"] == "waiting");
  CHECK(submissions[1]["outcome"] == "CE");
  CHECK(submissions[2]["outcome"] == "AC");
  CHECK(submissions[2]["score"] == 1500.0);
  CHECK(submissions[3]["outcome"] == "NR");
  CHECK(submissions[3]["score"].is_null());
  CHECK(submissions[3]["rejudge_of"].is_null());

  REQUIRE(d["queue"].size() == 1);
  const json& waiting = d["queue"][0];
  CHECK(waiting["account"] == "carol");
  CHECK(waiting["state"] == "queued");
  CHECK(waiting["position"] == 1);
  CHECK(waiting["waiting"] == 1);
  CHECK(waiting["age_seconds"].get<long long>() >= 0);
  CHECK(waiting["age_seconds"].get<long long>() < 600);

  // Students are told why; an unknown problem and a missing token are the API's usual answers.
  const auto refused = c.server.client(c.alice).Get("/api/v1/problems/matmul/dashboard");
  CHECK(refused->status == 403);
  CHECK(body_of(refused)["error"] == "only instructors see a problem's dashboard");
  CHECK(c.server.client(c.teacher).Get("/api/v1/problems/nothing/dashboard")->status == 404);
  CHECK(c.server.client("").Get("/api/v1/problems/matmul/dashboard")->status == 401);
}

TEST_CASE("the dashboard pages show an instructor the problems and the queue and refuse a student with 403",
          "[service][dashboard][web]") {
  dashboard_class c;
  c.hand_in();
  auto teacher = c.server.client(c.teacher);
  const auto index = teacher.Get("/dashboard");
  REQUIRE(index);
  CHECK(index->status == 200);
  CHECK(contains(index->body, "<a href=\"/dashboard/matmul\">matmul</a></td><td class=\"num\">4</td>"
                              "<td class=\"num\">3</td><td class=\"num\">1</td>"));
  CHECK(contains(index->body, "1 of 1 waiting for a compile thread"));

  const auto page = teacher.Get("/dashboard/matmul");
  REQUIRE(page);
  CHECK(page->status == 200);
  CHECK(contains(page->body, "<h1>Dashboard: matmul</h1>"));
  CHECK(contains(page->body, "every submission (4)"));
  CHECK(contains(page->body, "<span class=\"verdict NR\">NR</span>"));
  CHECK(contains(page->body, "<span class=\"verdict CE\">CE</span>"));
  CHECK(contains(page->body, "href=\"/similarity/matmul\""));
  CHECK(teacher.Get("/similarity/matmul")->status == 200); // the link leads somewhere
  CHECK(teacher.Get("/dashboard/nothing")->status == 404);

  for (const char* path : {"/dashboard", "/dashboard/matmul"}) {
    CAPTURE(path);
    const auto refused = c.server.client(c.alice).Get(path);
    REQUIRE(refused);
    CHECK(refused->status == 403);
    CHECK(contains(refused->body, "Only instructors see the dashboard"));
    CHECK_FALSE(contains(refused->body, "carol"));
  }
  CHECK(c.server.client("").Get("/dashboard/matmul")->status == 303); // sign in first
}
