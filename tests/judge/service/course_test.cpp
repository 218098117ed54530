// A course on a real `judge serve` on 127.0.0.1 (label cpu): releases hide problems from students,
// deadlines refuse or mark late submissions, an assignment's boards rank what counts (graded here by a
// stand-in grader that finishes queued submissions in the store, as a GPU worker would), the public
// board needs no sign-in and shows pseudonyms, and the gradebook is the instructors' (page, CSV, CLI).
#include "catch.hpp"
#include "judge/base/utc_time.hpp"
#include "judge/service/queue/submission_queue.hpp"
#include "judge/store/results_db.hpp"
#include "judge_command.hpp"
#include "judge_server.hpp"
#include "results_fixtures.hpp"
#include "text_match.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <regex>

using judge_test::add_account;
using judge_test::contains;
using judge_test::judge_server;
using judge_test::run_judge;
using judge_test::temp_folder;
using nlohmann::json;

namespace {
constexpr long long hour = 3600;

std::string at(long long offset) { return judge::utc_text(judge::epoch_seconds_now() + offset); }

/// Three assignments around now: one not yet released, one closed to late submissions (bob has an
/// extension), one that takes late submissions at 10% a day, with a public board of pseudonyms.
std::filesystem::path write_course(const temp_folder& dir) {
  const auto file = dir.path() / "course.yaml";
  std::ofstream(file) << "course: GPU programming\n"
                         "students:\n  alice: Alice Liddell\n"
                         "assignments:\n"
                         "  - name: soon\n    problems: [transpose]\n    release: "
                      << at(24 * hour) << "\n    deadline: " << at(48 * hour)
                      << "\n"
                         "  - name: closed\n    problems: [vector_add]\n    release: "
                      << at(-72 * hour) << "\n    deadline: " << at(-48 * hour) << "\n    extensions:\n      bob: "
                      << at(24 * hour)
                      << "\n"
                         "  - name: open_late\n    problems: [matmul]\n    release: "
                      << at(-72 * hour) << "\n    deadline: " << at(-36 * hour)
                      << "\n    late: {policy: accept, penalty_per_day: 10, floor: 50}\n    extensions:\n      bob: "
                      << at(24 * hour) << "\n    board: {public: true, names: pseudonym}\n";
  return file;
}

json body_of(const httplib::Result& r) {
  REQUIRE(r);
  INFO(r->body);
  return json::parse(r->body);
}

std::string submission(const std::string& problem) {
  return json{{"problem", problem}, {"files", json::array({{{"name", "a.cu"}, {"content", "// x\n"}}})}}.dump();
}

std::set<std::string> names_of(const json& problems) {
  std::set<std::string> out;
  for (const json& p : problems) out.insert(p["name"].get<std::string>());
  return out;
}

struct course_class {
  temp_folder dir;
  std::filesystem::path db = dir.path() / "judge.db";
  std::filesystem::path course = write_course(dir);
  std::string alice = add_account(db, "alice", "student");
  std::string bob = add_account(db, "bob", "student");
  std::string carol = add_account(db, "carol", "student");
  std::string teacher = add_account(db, "teacher", "instructor");
};
} // namespace

TEST_CASE("a course hides unreleased problems from students and refuses or marks late submissions",
          "[service][course]") {
  course_class c;
  judge_server server(c.db, {"--accept-only", "--course", c.course.string()});
  CHECK(contains(server.log(), "course.yaml, 3 assignment(s)"));
  auto alice = server.client(c.alice);
  auto teacher = server.client(c.teacher);

  const std::set<std::string> seen = names_of(body_of(alice.Get("/api/v1/problems")));
  CHECK(seen.count("matmul"));
  CHECK(seen.count("vector_add"));
  CHECK_FALSE(seen.count("transpose"));
  CHECK(names_of(body_of(teacher.Get("/api/v1/problems"))).count("transpose"));
  CHECK(alice.Get("/api/v1/problems/transpose")->status == 404);
  CHECK(alice.Get("/api/v1/leaderboard/transpose")->status == 404);
  CHECK(teacher.Get("/api/v1/problems/transpose")->status == 200);
  const auto early = alice.Post("/api/v1/submissions", submission("transpose"), "application/json");
  CHECK(early->status == 400);
  CHECK(contains(body_of(early)["error"], "unknown problem \"transpose\""));
  CHECK_FALSE(contains(alice.Get("/problems")->body, "transpose"));
  CHECK(alice.Get("/problems/transpose")->status == 404);
  CHECK(alice.Get("/problems/transpose/submit")->status == 404);
  CHECK(alice.Get("/board/transpose")->status == 404);
  CHECK(contains(teacher.Get("/problems")->body, "transpose"));

  // Past the deadline of an assignment that refuses late work: refused, nothing queued.
  const auto refused = alice.Post("/api/v1/submissions", submission("vector_add"), "application/json");
  CHECK(refused->status == 403);
  CHECK(contains(body_of(refused)["error"], "deadline of assignment 'closed'"));
  CHECK(body_of(alice.Get("/api/v1/submissions")).empty());
  // bob's extension, and an instructor, are in time.
  const json bobs = body_of(server.client(c.bob).Post("/api/v1/submissions", submission("vector_add"),
                                                      "application/json"));
  CHECK(bobs["assignment"] == "closed");
  CHECK(bobs["late_seconds"] == 0);
  CHECK(teacher.Post("/api/v1/submissions", submission("vector_add"), "application/json")->status == 202);

  // Late where late work is accepted: queued and marked, the mark stored with it.
  const auto late = alice.Post("/api/v1/submissions", submission("matmul"), "application/json");
  REQUIRE(late->status == 202);
  const json accepted = body_of(late);
  CHECK(accepted["assignment"] == "open_late");
  CHECK(accepted["late_seconds"].get<long long>() >= 36 * hour);
  const json stored = body_of(alice.Get(("/api/v1/submissions/" + std::to_string(accepted["id"].get<int>())).c_str()));
  CHECK(stored["late_seconds"].get<long long>() >= 36 * hour);
  CHECK(stored["assignment"] == "open_late");
  CHECK(contains(alice.Get(("/submissions/" + std::to_string(accepted["id"].get<int>())).c_str())->body,
                 "open_late: late by 1 day 12 h"));
  CHECK(contains(alice.Get("/history")->body, "class=\"late\""));

  // The web form says the same as the API.
  const auto form = alice.Get("/assignments");
  CHECK(contains(form->body, "open_late"));
  CHECK_FALSE(contains(form->body, "soon"));
  CHECK(contains(teacher.Get("/assignments")->body, "soon"));

  const json mine = body_of(alice.Get("/api/v1/assignments"));
  REQUIRE(mine.size() == 2);
  CHECK(mine[0]["name"] == "closed");
  CHECK(mine[1]["board"]["url"] == "/public/board/open_late");
  const json bobs_list = body_of(server.client(c.bob).Get("/api/v1/assignments"));
  CHECK(bobs_list[0]["your_deadline"] != bobs_list[0]["deadline"]);
  CHECK(body_of(teacher.Get("/api/v1/assignments")).size() == 3);
}

TEST_CASE("an assignment's boards rank what counts, the public one without sign-in and under pseudonyms, and the "
          "gradebook is the instructors'",
          "[service][course]") {
  course_class c;
  judge_server server(c.db, {"--accept-only", "--course", c.course.string()});
  auto post = [&](const std::string& token) {
    const json r = body_of(server.client(token).Post("/api/v1/submissions", submission("matmul"), "application/json"));
    return r["id"].get<std::int64_t>();
  };
  const std::int64_t alice_late = post(c.alice), bob_in_time = post(c.bob);
  {
    // The stand-in grader: finishes the queued submissions in the store as a GPU worker would.
    judge::results_db store(c.db);
    judge::service::submission_queue queue(store);
    CHECK(queue.finish(alice_late, judge::testing::accepted_result("alice", 1000, "NVIDIA H200", at(0)), true, "GPU-1"));
    CHECK(queue.finish(bob_in_time, judge::testing::accepted_result("bob", 900, "NVIDIA H200", at(1)), true, "GPU-1"));
  }

  // Signed in: names; alice was two days (begun) late, so her 1000 counts as 800, behind bob's 900.
  const std::string board = server.client(c.carol).Get("/assignments/open_late/board")->body;
  REQUIRE(contains(board, "bob"));
  CHECK(board.find("bob") < board.find("alice"));
  CHECK(contains(board, "alice was late by 1 day 12 h: its score counts at 80%"));

  // Public: no token at all; pseudonyms, never names.
  const auto open = server.client("").Get("/public/board/open_late");
  REQUIRE(open);
  CHECK(open->status == 200);
  CHECK_FALSE(contains(open->body, "alice"));
  CHECK_FALSE(contains(open->body, ">bob<"));
  std::smatch pseudonym;
  CHECK(std::regex_search(open->body, pseudonym, std::regex("([a-z]+-[a-z]+-[0-9a-f]{4}) was late by")));
  CHECK(server.client("").Get("/public/board/open_late")->body == open->body); // stable
  CHECK(server.client("").Get("/public/board/closed")->status == 404);        // not public
  CHECK(server.client("").Get("/public/board/nothing")->status == 404);
  CHECK(server.client("").Get("/assignments/open_late/board")->status == 303); // sign in first

  // The gradebook: instructors only; every student, carol who never submitted too.
  CHECK(server.client(c.alice).Get("/assignments/open_late/gradebook")->status == 403);
  CHECK(server.client(c.alice).Get("/assignments/open_late/gradebook.csv")->status == 403);
  const std::string page = server.client(c.teacher).Get("/assignments/open_late/gradebook")->body;
  CHECK(contains(page, "Alice Liddell"));
  CHECK(contains(page, "never submitted"));
  CHECK(contains(page, "800.0 GFLOPS"));
  const auto csv = server.client(c.teacher).Get("/assignments/open_late/gradebook.csv");
  CHECK(csv->get_header_value("Content-Type") == "text/csv; charset=utf-8");
  CHECK(contains(csv->body, "student_id,name,matmul,matmul_verdict,matmul_submissions,matmul_late_days\r\n"));
  CHECK(contains(csv->body, "alice,Alice Liddell,800.00,AC,1,2\r\n"));
  CHECK(contains(csv->body, "bob,bob,900.00,AC,1,0\r\n"));
  CHECK(contains(csv->body, "carol,carol,,,0,\r\n"));

  // The command line reads the same store.
  const auto cli = run_judge("gradebook open_late --csv --course " + c.course.string() + " --db " + c.db.string());
  CHECK(cli.status == 0);
  CHECK(cli.output == csv->body);
  const auto table = run_judge("gradebook open_late --course " + c.course.string() + " --db " + c.db.string());
  CHECK(contains(table.output, "AC 800.0 (1) late 2d"));
  CHECK(contains(table.output, "3 student(s), 1 of them never submitted"));
  const auto unknown = run_judge("gradebook a9 --course " + c.course.string() + " --db " + c.db.string());
  CHECK(unknown.status == 2);
  CHECK(contains(unknown.output, "no assignment 'a9' (it has: soon, closed, open_late)"));
}

TEST_CASE("a server whose course file has a mistake does not start and names the file, line and field",
          "[service][course]") {
  temp_folder dir;
  const auto file = dir.path() / "course.yaml";
  std::ofstream(file) << "assignments:\n  - name: a1\n    problems: [matmul]\n    deadline: next week\n";
  const auto r = run_judge("serve --listen 127.0.0.1:0 --accept-only --db " + (dir.path() / "judge.db").string() +
                           " --course " + file.string());
  CHECK(r.status == 2);
  CHECK(contains(r.output, "course.yaml:4: assignment 'a1': field 'deadline': expected a time"));
}
