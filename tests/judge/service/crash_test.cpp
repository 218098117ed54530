// The durable queue under a crash: `judge serve` killed with SIGKILL while submissions are queued and
// compiling, then restarted, grades every submission exactly once (label cpu; no GPU needed: compile
// errors are graded and recorded on the CPU).
#include "catch.hpp"
#include "judge_server.hpp"
#include "results_fixtures.hpp"
#include "judge/service/queue/submission_queue.hpp"
#include "text_match.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <map>
#include <thread>

using namespace judge;
using judge_test::add_account;
using judge_test::contains;
using judge_test::judge_server;
using judge_test::temp_folder;

namespace {
std::int64_t scalar(results_db& store, const std::string& sql) {
  sqlite::statement st = store.connection().prepare(sql);
  REQUIRE(st.step());
  return st.get_int(0);
}
} // namespace

TEST_CASE("a server killed mid-queue and restarted grades every submission exactly once", "[service][crash]") {
  temp_folder dir;
  const auto db = dir / "judge.db";
  std::vector<std::string> tokens;
  for (const char* name : {"ann", "ben", "cat"}) tokens.push_back(add_account(db, name, "student"));
  const std::vector<std::string> args = {"--compile-threads", "2", "--per-minute", "60", "--queued-at-once", "60"};
  std::vector<std::int64_t> ids;
  std::filesystem::path staging; // the killed server's: the next one removes it
  {
    judge_server server(db, args);
    // Each a different compile error: nothing is cached, each takes a compiler run, and each is recorded.
    for (int i = 0; i < 9; ++i) {
      const nlohmann::json body = {
          {"problem", "vector_add"},
          {"files", {{{"name", "a.cu"}, {"content", "int broken_" + std::to_string(i) + " = ;\n"}}}}};
      const auto r = server.client(tokens[i % 3]).Post("/api/v1/submissions", body.dump(), "application/json");
      REQUIRE(r);
      REQUIRE(r->status == 202);
      ids.push_back(nlohmann::json::parse(r->body)["id"]);
    }
    results_db store(db);
    service::submission_queue queue(store);
    for (int i = 0; i < 1200 && queue.count(service::state::done) == 0; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    staging = std::filesystem::temp_directory_path() / ("gpu-judge-serve-" + std::to_string(server.pid()));
    server.kill_now();
    INFO(server.log());
    const std::size_t done_before = queue.count(service::state::done);
    CHECK(done_before >= 1);
    REQUIRE(done_before < ids.size()); // killed mid-queue, or the test proves nothing
  }
  judge_server again(db, args);
  CHECK_FALSE(std::filesystem::exists(staging));
  results_db store(db);
  service::submission_queue queue(store);
  for (int i = 0; i < 2400 && queue.count(service::state::done) < ids.size(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  INFO(again.log());
  CHECK(queue.count(service::state::done) == ids.size());
  for (const std::int64_t id : ids) {
    CAPTURE(id);
    const auto s = queue.get(id);
    REQUIRE(s);
    CHECK(s->now == service::state::done);
    REQUIRE(s->result);
    CHECK((*s->result)["verdict"] == "CE");
  }
  // Exactly once: one stored result per submission, each queue entry pointing at its own.
  CHECK(scalar(store, "SELECT COUNT(*) FROM submissions") == static_cast<std::int64_t>(ids.size()));
  CHECK(scalar(store, "SELECT COUNT(DISTINCT path) FROM submissions") == static_cast<std::int64_t>(ids.size()));
  CHECK(scalar(store, "SELECT COUNT(DISTINCT result_id) FROM queued_submissions WHERE result_id IS NOT NULL") ==
        static_cast<std::int64_t>(ids.size()));
  CHECK(again.stop() == 0);
  CHECK(contains(again.log(), "go back to the queue"));
}
