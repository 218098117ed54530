// Draft problems and rejudging against a real `judge serve` on 127.0.0.1 (label cpu): without a GPU every
// submission ends not run (NR), and its result still carries the case set it was graded on.
#include "catch.hpp"
#include "judge/base/file_input.hpp"
#include "judge_command.hpp"
#include "judge_server.hpp"
#include "scoped_env.hpp"
#include "text_match.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <fstream>
#include <set>
#include <thread>

using judge_test::add_account;
using judge_test::contains;
using judge_test::judge_server;
using judge_test::scratch_root;
using judge_test::temp_folder;
using nlohmann::json;

namespace {
json submission_body(const std::string& problem, const std::string& content) {
  return {{"problem", problem}, {"files", json::array({{{"name", "a.cu"}, {"content", content}}})}};
}

json body_of(const httplib::Result& r) {
  REQUIRE(r);
  INFO(r->body);
  return json::parse(r->body);
}

json wait_until_settled(const judge_server& server, const std::string& token, std::int64_t id, int seconds = 180) {
  auto client = server.client(token);
  json s;
  for (int i = 0; i < seconds * 4; ++i) {
    s = body_of(client.Get(("/api/v1/submissions/" + std::to_string(id)).c_str()));
    if (s["state"] == "done" || s["state"] == "failed") return s;
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
  FAIL("submission " << id << " did not settle in " << seconds << " s: " << s.dump() << "\n" << server.log());
  return s;
}

std::set<std::string> problem_names(const judge_server& server, const std::string& token) {
  std::set<std::string> out;
  for (const auto& p : body_of(server.client(token).Get("/api/v1/problems"))) out.insert(p["name"]);
  return out;
}

std::string example_solution() {
  return judge::read_file(std::filesystem::path(JUDGE_SOURCE_DIR) / "solutions" / "vector_add" / "example.cu");
}
} // namespace

TEST_CASE("a draft problem is hidden from students and refused to them, and open to instructors",
          "[service][api]") {
  scratch_root root;
  const std::string yaml = judge::read_file(root.dir / "problems" / "matmul" / "problem.yaml");
  root.write("problems/matmul/problem.yaml", "status: draft\n" + yaml);
  temp_folder dir;
  const std::string alice = add_account(dir / "judge.db", "alice", "student");
  const std::string teacher = add_account(dir / "judge.db", "teacher", "instructor");
  const judge_test::scoped_env at_root("JUDGE_ROOT", root.dir.string());
  judge_server server(dir / "judge.db", {"--accept-only"});

  CHECK_FALSE(problem_names(server, alice).count("matmul"));
  CHECK(problem_names(server, alice).count("vector_add"));
  for (const auto& p : body_of(server.client(teacher).Get("/api/v1/problems")))
    if (p["name"] == "matmul") CHECK(p["status"] == "draft");
  CHECK(problem_names(server, teacher).count("matmul"));

  auto student = server.client(alice);
  for (const char* path : {"/api/v1/problems/matmul", "/api/v1/leaderboard/matmul", "/problems/matmul",
                           "/problems/matmul/submit", "/board/matmul"}) {
    CAPTURE(path);
    const auto r = student.Get(path);
    REQUIRE(r);
    CHECK(r->status == 404);
  }
  const auto refused = student.Post("/api/v1/submissions", submission_body("matmul", "x").dump(), "application/json");
  REQUIRE(refused);
  CHECK(refused->status == 400);
  CHECK(contains(body_of(refused)["error"], "problem \"matmul\" is a draft"));

  auto instructor = server.client(teacher);
  CHECK(body_of(instructor.Get("/api/v1/problems/matmul"))["status"] == "draft");
  const auto page = instructor.Get("/problems/matmul");
  REQUIRE(page);
  CHECK(page->status == 200);
  CHECK(contains(page->body, "status: draft"));
  const auto posted =
      instructor.Post("/api/v1/submissions", submission_body("matmul", "x").dump(), "application/json");
  REQUIRE(posted);
  CHECK(posted->status == 202);
}

TEST_CASE("a rejudge grades each stored submission again on the current cases and the old results stay",
          "[service][api]") {
  scratch_root root;
  temp_folder dir;
  const auto db = dir / "judge.db";
  const std::string alice = add_account(db, "alice", "student");
  const std::string teacher = add_account(db, "teacher", "instructor");
  const judge_test::scoped_env at_root("JUDGE_ROOT", root.dir.string());
  judge_server server(db, {"--compile-threads", "1"});
  auto student = server.client(alice);
  auto instructor = server.client(teacher);
  const auto version = [&] { return body_of(instructor.Get("/api/v1/problems/vector_add"))["case_set"]; };
  const std::string before = version();
  REQUIRE(before.size() == 12);

  const json queued = body_of(
      student.Post("/api/v1/submissions", submission_body("vector_add", example_solution()).dump(), "application/json"));
  const std::int64_t original = queued["id"];
  const json first = wait_until_settled(server, alice, original);
  REQUIRE(first["result"].is_object());
  CHECK(first["result"]["verdict"] == "NR");
  CHECK(first["result"]["case_set"] == before);

  // A case added while the server runs: offered within a second, with a new version.
  {
    std::ofstream cases(root.dir / "testcases" / "vector_add" / "cases.yaml", std::ios::app);
    cases << "  - name: n_4099\n    sizes: {N: 4099}\n    seed: 2299\n";
  }
  std::string after = before;
  for (int i = 0; i < 50 && after == before; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    after = version();
  }
  REQUIRE(after != before);

  const auto by_student = student.Post("/api/v1/problems/vector_add/rejudge", "{}", "application/json");
  REQUIRE(by_student);
  CHECK(by_student->status == 403);
  const auto bad_time =
      instructor.Post("/api/v1/problems/vector_add/rejudge", R"({"since": "last week"})", "application/json");
  REQUIRE(bad_time);
  CHECK(bad_time->status == 400);
  CHECK(contains(body_of(bad_time)["error"], "since"));
  const auto unknown = instructor.Post("/api/v1/problems/nope/rejudge", "{}", "application/json");
  REQUIRE(unknown);
  CHECK(unknown->status == 404);

  const auto rejudged = instructor.Post("/api/v1/problems/vector_add/rejudge", "{}", "application/json");
  REQUIRE(rejudged);
  CHECK(rejudged->status == 202);
  const json answer = body_of(rejudged);
  CHECK(answer["case_set"] == after);
  REQUIRE(answer["queued"].size() == 1);
  const std::int64_t copy = answer["queued"][0];
  const json second = wait_until_settled(server, teacher, copy);
  CHECK(second["account"] == "alice");
  CHECK(second["rejudge_of"] == original);
  CHECK(second["result"]["case_set"] == after);
  // Nothing recorded is lost: the first result is as it was.
  CHECK(body_of(student.Get(("/api/v1/submissions/" + std::to_string(original)).c_str()))["result"] ==
        first["result"]);

  // The CLI calls the same endpoint; a time after every submission queues nothing.
  const auto url = "http://127.0.0.1:" + std::to_string(server.port());
  const auto cli = judge_test::run_judge("rejudge vector_add --since 2999-01-01 --server " + url,
                                         root.environment() + " JUDGE_TOKEN=" + teacher + " ");
  CAPTURE(cli.output);
  CHECK(cli.status == 0);
  CHECK(contains(cli.output, "vector_add: 0 submission(s) made since 2999-01-01T00:00:00Z queued again"));
  const auto as_student =
      judge_test::run_judge("rejudge vector_add --server " + url, root.environment() + " JUDGE_TOKEN=" + alice + " ");
  CHECK(as_student.status == 2);
  CHECK(contains(as_student.output, "only an instructor may rejudge"));
}
