// The JSON API against a real `judge serve` on 127.0.0.1 (label cpu): without a GPU a submission is
// compiled and ends "not run: no CUDA device", exactly as `judge run` ends there.
#include "catch.hpp"
#include "judge/base/file_input.hpp"
#include "judge/service/queue/submission_queue.hpp"
#include "judge_command.hpp"
#include "judge_server.hpp"
#include "results_fixtures.hpp"
#include "text_match.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <set>
#include <thread>

using judge_test::add_account;
using judge_test::contains;
using judge_test::judge_server;
using judge_test::temp_folder;
using nlohmann::json;

namespace {
std::string example_solution(const std::string& problem) {
  return judge::read_file(std::filesystem::path(JUDGE_SOURCE_DIR) / "solutions" / problem / "example.cu");
}

json submission_body(const std::string& problem, const std::string& content, const std::string& name = "a.cu") {
  return {{"problem", problem}, {"files", json::array({{{"name", name}, {"content", content}}})}};
}

json body_of(const httplib::Result& r) {
  REQUIRE(r);
  INFO(r->body);
  return json::parse(r->body);
}

/// Polls until the submission is done or failed (up to `seconds`).
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
} // namespace

TEST_CASE("every API call without a valid token is refused with 401", "[service][api]") {
  temp_folder dir;
  add_account(dir / "judge.db", "alice", "student");
  judge_server server(dir / "judge.db", {"--accept-only"});
  for (const std::string token : {std::string(), std::string("jt_not-a-real-token")}) {
    auto client = server.client(token);
    for (const char* path : {"/api/v1/me", "/api/v1/problems", "/api/v1/problems/matmul", "/api/v1/submissions",
                             "/api/v1/submissions/1", "/api/v1/leaderboard/matmul"}) {
      CAPTURE(token, path);
      const auto r = client.Get(path);
      REQUIRE(r);
      CHECK(r->status == 401);
      CHECK(contains(body_of(r)["error"], "Bearer"));
    }
    const auto post = client.Post("/api/v1/submissions", submission_body("matmul", "x").dump(), "application/json");
    REQUIRE(post);
    CHECK(post->status == 401);
  }
}

TEST_CASE("the problem list and a statement and the starter come through the API", "[service][api]") {
  temp_folder dir;
  const std::string token = add_account(dir / "judge.db", "alice", "student");
  judge_server server(dir / "judge.db", {"--accept-only"});
  auto client = server.client(token);
  CHECK(body_of(client.Get("/api/v1/me")) == json{{"name", "alice"}, {"role", "student"}});
  const json problems = body_of(client.Get("/api/v1/problems"));
  REQUIRE(problems.is_array());
  bool has_matmul = false;
  for (const json& p : problems)
    if (p["name"] == "matmul") {
      has_matmul = true;
      CHECK(p["unit"] == "GFLOPS");
      CHECK(p["timed_cases"].get<int>() > 0);
    }
  CHECK(has_matmul);
  const json matmul = body_of(client.Get("/api/v1/problems/matmul"));
  CHECK(contains(matmul["signature"], "solve("));
  CHECK_FALSE(matmul["statement"].get<std::string>().empty());
  CHECK(contains(matmul["starter"], "solve("));
  const auto missing = client.Get("/api/v1/problems/nope");
  REQUIRE(missing);
  CHECK(missing->status == 404);
  CHECK(contains(body_of(missing)["error"], "nope"));
  const json board = body_of(client.Get("/api/v1/leaderboard/matmul"));
  CHECK(board["problem"] == "matmul");
  CHECK(board["boards"].is_array());
}

TEST_CASE("a submission is compiled and ends not run without a GPU and is seen by its author and instructors only",
          "[service][api]") {
  temp_folder dir;
  const auto db = dir / "judge.db";
  const std::string alice = add_account(db, "alice", "student");
  const std::string bob = add_account(db, "bob", "student");
  const std::string teacher = add_account(db, "teacher", "instructor");
  judge_server server(db, {"--compile-threads", "1"});
  auto client = server.client(alice);
  const auto posted = client.Post(
      "/api/v1/submissions", submission_body("vector_add", example_solution("vector_add")).dump(), "application/json");
  REQUIRE(posted);
  CHECK(posted->status == 202);
  const json accepted = body_of(posted);
  CHECK(accepted["state"] == "queued");
  const std::int64_t id = accepted["id"];

  const json done = wait_until_settled(server, alice, id);
  INFO(done.dump());
  CHECK(done["state"] == "done");
  CHECK(done["account"] == "alice");
  CHECK(done["problem"] == "vector_add");
  CHECK(done["gpu"] == "");
  CHECK_FALSE(done["finished_at"].get<std::string>().empty());
  REQUIRE(done["result"].is_object());
  CHECK(done["result"]["verdict"] == "NR");
  CHECK(contains(done["result"]["message"], "not run: no CUDA device"));
  CHECK(done["result"]["author"] == "alice");

  const auto other = server.client(bob).Get(("/api/v1/submissions/" + std::to_string(id)).c_str());
  REQUIRE(other);
  CHECK(other->status == 404);
  CHECK(body_of(server.client(teacher).Get(("/api/v1/submissions/" + std::to_string(id)).c_str()))["id"] == id);

  const json mine = body_of(client.Get("/api/v1/submissions"));
  REQUIRE(mine.size() == 1);
  CHECK(mine[0]["id"] == id);
  CHECK(body_of(server.client(bob).Get("/api/v1/submissions")).empty());
  const auto peek = server.client(bob).Get("/api/v1/submissions?account=alice");
  REQUIRE(peek);
  CHECK(peek->status == 403);
  CHECK(body_of(server.client(teacher).Get("/api/v1/submissions?account=alice&limit=5")).size() == 1);
  CHECK(server.stop() == 0);
  CHECK(contains(server.log(), "stopped"));
}

TEST_CASE("a failing submission's verdict is answered before its explanation, which then takes pending's place",
          "[service][api][sanitizer]") {
  temp_folder dir;
  const auto db = dir / "judge.db";
  const std::string alice = add_account(db, "alice", "student");
  // The server grades nothing here; the test is its GPU worker, on the same store (no GPU on this host).
  judge_server server(db, {"--accept-only"});
  auto client = server.client(alice);
  const json accepted = body_of(client.Post(
      "/api/v1/submissions", submission_body("matmul", example_solution("matmul")).dump(), "application/json"));
  const std::int64_t id = accepted["id"];
  const std::string at = "/api/v1/submissions/" + std::to_string(id);
  judge::results_db store(db);
  judge::service::submission_queue queue(store);
  queue.compiled(queue.claim_for_compile("compile 1")->id);
  REQUIRE(queue.claim_for_gpu("gpu GPU-1")->id == id);
  queue.finish(id, judge::testing::explained_result("alice", false), true, "GPU-1 NVIDIA H200");

  // The verdict and every case are out; the sanitizer's part is still to come.
  const json published = body_of(client.Get(at.c_str()));
  INFO(published.dump());
  CHECK(published["state"] == "done");
  CHECK(published["sanitizer"] == "pending");
  CHECK(published["result"]["verdict"] == "RTE");
  CHECK(published["result"]["cases"].size() == 3);
  CHECK(published["result"]["sanitizer"]["state"] == "pending");
  CHECK(published["result"]["sanitizer"]["tools"] == json{"memcheck"});
  CHECK_FALSE(published["result"]["cases"][1].contains("sanitizer"));
  // The board does not wait either: a failure is not ranked, and it is stored already.
  CHECK(store.results_for("matmul").size() == 1);
  httplib::Client browser = server.client("");
  browser.set_default_headers({{"Cookie", "judge_token=" + alice}});
  const auto pending_page = browser.Get(("/submissions/" + std::to_string(id)).c_str());
  REQUIRE(pending_page);
  CHECK(contains(pending_page->body, "data-sanitizer=\"pending\""));
  CHECK(contains(pending_page->body, "<dt>sanitizer</dt><dd id=\"sanitizer\">pending</dd>"));
  CHECK(contains(pending_page->body, "compute-sanitizer on square_1024: pending (memcheck, at most 40 s)"));

  REQUIRE(queue.claim_explanation("gpu GPU-1")->id == id);
  CHECK(body_of(client.Get(at.c_str()))["sanitizer"] == "pending"); // while it runs
  REQUIRE(queue.explained(id, judge::testing::explained_result("alice", true)));
  const json explained = body_of(client.Get(at.c_str()));
  CHECK(explained["sanitizer"] == "done");
  CHECK(explained["result"]["sanitizer"]["state"] == "done");
  CHECK(explained["result"]["cases"][1]["sanitizer"][0]["summary"] == "memcheck, 3.5 s: 1 error");
  CHECK(explained["result"]["verdict"] == published["result"]["verdict"]);
  CHECK(explained["finished_at"] == published["finished_at"]);
  const auto explained_page = browser.Get(("/submissions/" + std::to_string(id)).c_str());
  REQUIRE(explained_page);
  CHECK(contains(explained_page->body, "<dt>sanitizer</dt><dd id=\"sanitizer\">done</dd>"));
  CHECK(contains(explained_page->body, "<h3>compute-sanitizer on square_1024</h3>"));
  CHECK(contains(explained_page->body, "mine.cu:7"));
  CHECK_FALSE(contains(explained_page->body, "pending (memcheck"));
}

TEST_CASE("bad submissions are refused with one clear message and nothing is queued", "[service][api]") {
  temp_folder dir;
  const std::string token = add_account(dir / "judge.db", "alice", "student");
  judge_server server(dir / "judge.db", {"--accept-only", "--per-minute", "100", "--queued-at-once", "100"});
  auto client = server.client(token);
  json too_many = submission_body("matmul", "x");
  for (int i = 0; i < 9; ++i) too_many["files"].push_back({{"name", "f" + std::to_string(i) + ".cu"}, {"content", ""}});
  const std::string non_utf8 =
      std::string("{\"problem\": \"matmul\", \"files\": [{\"name\": \"caf") + "\xe9" + ".cu\", \"content\": \"x\"}]}";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{\"problem\": ", "not valid JSON"},
      {"[1, 2]", "JSON object"},
      {json{{"files", json::array()}}.dump(), "\"problem\" is missing"},
      {submission_body("nope", "x").dump(), "unknown problem \"nope\""},
      {json{{"problem", "matmul"}, {"files", json::array()}}.dump(), "no files"},
      {json{{"problem", "matmul"}}.dump(), "\"files\" is missing"},
      {too_many.dump(), "at most 8"},
      {submission_body("matmul", std::string(300 * 1024, 'x')).dump(), "more than the 256 KiB"},
      {submission_body("matmul", "x", "../evil.cu").dump(), "not allowed"},
      {submission_body("matmul", "x", "dir/a.cu").dump(), "not allowed"},
      {submission_body("matmul", "x", "a.py").dump(), "not allowed"},
      {submission_body("matmul", "x", "caf\xc3\xa9.cu").dump(), "not allowed"},
      {submission_body("matmul", "x", "a.h").dump(), "no .cu file"},
      {non_utf8, "UTF-8"},
  };
  for (const auto& [body, message] : cases) {
    CAPTURE(body.substr(0, 200));
    const auto r = client.Post("/api/v1/submissions", body, "application/json");
    REQUIRE(r);
    CHECK(r->status == 400);
    CHECK(contains(body_of(r)["error"], message));
  }
  CHECK(body_of(client.Get("/api/v1/submissions")).empty());
}

TEST_CASE("rate limits refuse with 429 and Retry-After and instructors have none", "[service][api]") {
  temp_folder dir;
  const auto db = dir / "judge.db";
  const std::string alice = add_account(db, "alice", "student");
  const std::string bob = add_account(db, "bob", "student");
  const std::string teacher = add_account(db, "teacher", "instructor");
  judge_server server(db, {"--accept-only", "--per-minute", "3", "--queued-at-once", "2"});
  const std::string body = submission_body("matmul", "x").dump();
  auto post = [&](const std::string& token) {
    return server.client(token).Post("/api/v1/submissions", body, "application/json");
  };
  CHECK(post(alice)->status == 202);
  CHECK(post(alice)->status == 202);
  const auto waiting = post(alice);
  REQUIRE(waiting);
  CHECK(waiting->status == 429);
  CHECK(waiting->get_header_value("Retry-After") == "5");
  CHECK(contains(body_of(waiting)["error"], "at most 2 at once"));
  CHECK(post(bob)->status == 202); // one student's limit is not another's
  for (int i = 0; i < 5; ++i) CHECK(post(teacher)->status == 202);
  CHECK(body_of(server.client(alice).Get("/api/v1/submissions")).size() == 2);
}

TEST_CASE("the per-minute limit counts submissions of the last minute", "[service][api]") {
  temp_folder dir;
  const auto db = dir / "judge.db";
  const std::string alice = add_account(db, "alice", "student");
  judge_server server(db, {"--accept-only", "--per-minute", "2", "--queued-at-once", "10"});
  const std::string body = submission_body("matmul", "x").dump();
  auto client = server.client(alice);
  CHECK(client.Post("/api/v1/submissions", body, "application/json")->status == 202);
  CHECK(client.Post("/api/v1/submissions", body, "application/json")->status == 202);
  const auto third = client.Post("/api/v1/submissions", body, "application/json");
  REQUIRE(third);
  CHECK(third->status == 429);
  CHECK(third->get_header_value("Retry-After") == "60");
  CHECK(contains(body_of(third)["error"], "in the last minute"));
}

TEST_CASE("judge serve names an address it cannot listen on", "[service][api]") {
  temp_folder dir;
  judge_server first(dir / "judge.db", {"--accept-only"});
  const auto r = judge_test::run_judge("serve --accept-only --db " + (dir / "other.db").string() +
                                       " --listen 127.0.0.1:" + std::to_string(first.port()));
  CHECK(r.status != 0);
  CHECK(contains(r.output, "cannot listen on 127.0.0.1:" + std::to_string(first.port())));
  const auto bad = judge_test::run_judge("serve --listen nowhere --db " + (dir / "other.db").string());
  CHECK(bad.status == 2);
  CHECK(contains(bad.output, "--listen nowhere"));
}

TEST_CASE("a change made with the sign-in cookie must come from the judge's origin as JSON and bearer clients "
          "are unaffected",
          "[service][api][csrf]") {
  temp_folder dir;
  const std::string alice = add_account(dir / "judge.db", "alice", "student");
  judge_server server(dir / "judge.db", {"--accept-only", "--per-minute", "100", "--queued-at-once", "100"});
  const std::string body = submission_body("matmul", "x").dump();
  auto with_cookie = [&](const httplib::Headers& headers) {
    httplib::Client c = server.client("");
    httplib::Headers all = headers;
    all.emplace("Cookie", "judge_token=" + alice);
    c.set_default_headers(all);
    return c;
  };
  const std::string here = "127.0.0.1:" + std::to_string(server.port());
  SECTION("text/plain with the cookie, as another page's fetch or form can send it") {
    const auto r = with_cookie({}).Post("/api/v1/submissions", body, "text/plain");
    REQUIRE(r);
    CHECK(r->status == 415);
    CHECK(contains(body_of(r)["error"], "application/json"));
  }
  SECTION("JSON with the cookie from a page on another port of this host") {
    const auto r =
        with_cookie({{"Origin", "http://127.0.0.1:1"}}).Post("/api/v1/submissions", body, "application/json");
    REQUIRE(r);
    CHECK(r->status == 403);
    CHECK(contains(body_of(r)["error"], "http://127.0.0.1:1"));
  }
  SECTION("JSON with the cookie that the browser says came from the same site but another origin") {
    const auto r = with_cookie({{"Sec-Fetch-Site", "same-site"}}).Post("/api/v1/submissions", body, "application/json");
    REQUIRE(r);
    CHECK(r->status == 403);
  }
  SECTION("JSON with the cookie from the judge's own page is accepted") {
    const auto r = with_cookie({{"Origin", "http://" + here}, {"Sec-Fetch-Site", "same-origin"}})
                       .Post("/api/v1/submissions", body, "application/json");
    REQUIRE(r);
    CHECK(r->status == 202);
  }
  SECTION("a bearer client needs neither, whatever it sends") {
    httplib::Client c = server.client(alice);
    c.set_default_headers({{"Origin", "http://elsewhere.example"}});
    const auto r = c.Post("/api/v1/submissions", body, "text/plain");
    REQUIRE(r);
    CHECK(r->status == 202);
  }
  SECTION("reads with the cookie need nothing") {
    const auto r = with_cookie({{"Origin", "http://127.0.0.1:1"}}).Get("/api/v1/me");
    REQUIRE(r);
    CHECK(r->status == 200);
  }
}

TEST_CASE("a second server on the same store refuses to start as a usage error and names the first", "[service][api]") {
  temp_folder dir;
  add_account(dir / "judge.db", "alice", "student");
  judge_server first(dir / "judge.db", {"--accept-only"});
  const auto second =
      judge_test::run_judge("serve --accept-only --listen 127.0.0.1:0 --db " + (dir / "judge.db").string());
  CHECK(second.status == 2); // the mistake is the command's (another --db), not the judge's
  CHECK(contains(second.output, "another judge serve uses the store"));
  CHECK_FALSE(contains(second.output, "internal error"));
  CHECK(contains(second.output, "pid " + std::to_string(first.pid())));
  CHECK_FALSE(contains(second.output, "listening on"));
  first.stop();
  // A server that ended (also one killed: the lock is the kernel's) leaves the store free.
  judge_server again(dir / "judge.db", {"--accept-only"});
  again.kill_now();
  judge_server third(dir / "judge.db", {"--accept-only"});
  CHECK(third.port() != 0);
}

TEST_CASE("an instructor's waiting submissions are capped by --instructor-queued", "[service][api]") {
  temp_folder dir;
  const std::string teacher = add_account(dir / "judge.db", "teacher", "instructor");
  judge_server server(dir / "judge.db", {"--accept-only", "--instructor-queued", "3"});
  const std::string body = submission_body("matmul", "x").dump();
  for (int i = 0; i < 3; ++i)
    CHECK(server.client(teacher).Post("/api/v1/submissions", body, "application/json")->status == 202);
  const auto fourth = server.client(teacher).Post("/api/v1/submissions", body, "application/json");
  REQUIRE(fourth);
  CHECK(fourth->status == 429);
  CHECK(contains(body_of(fourth)["error"], "--instructor-queued"));
}

TEST_CASE("a problem added while the server runs is offered without a restart", "[service][api]") {
  namespace fs = std::filesystem;
  temp_folder dir;
  const fs::path root = dir / "root", source = JUDGE_SOURCE_DIR;
  fs::create_directories(root / "problems");
  fs::create_directories(root / "testcases");
  fs::copy(source / "problems" / "vector_add", root / "problems" / "vector_add", fs::copy_options::recursive);
  fs::copy(source / "testcases" / "vector_add", root / "testcases" / "vector_add", fs::copy_options::recursive);
  const std::string alice = add_account(dir / "judge.db", "alice", "student");
  ::setenv("JUDGE_ROOT", root.c_str(), 1);
  judge_server server(dir / "judge.db", {"--accept-only"});
  ::unsetenv("JUDGE_ROOT");
  auto names = [&] {
    std::set<std::string> out;
    for (const auto& p : body_of(server.client(alice).Get("/api/v1/problems"))) out.insert(p["name"]);
    return out;
  };
  CHECK(names() == std::set<std::string>{"vector_add"});
  // As `judge new-problem` or a copy does it: the test cases first, then the problem's folder.
  fs::copy(source / "testcases" / "matmul", root / "testcases" / "matmul", fs::copy_options::recursive);
  fs::copy(source / "problems" / "matmul", root / "problems" / "matmul", fs::copy_options::recursive);
  for (int i = 0; i < 50 && !names().count("matmul"); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK(names() == std::set<std::string>{"matmul", "vector_add"});
  const auto r =
      server.client(alice).Post("/api/v1/submissions", submission_body("matmul", "x").dump(), "application/json");
  REQUIRE(r);
  CHECK(r->status == 202);
}
