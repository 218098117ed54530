// `judge history` and the store-reading rules it shares with `judge leaderboard`.
#include "catch.hpp"
#include "judge_command.hpp"
#include "judge/service/queue/submission_queue.hpp"
#include "judge/store/results_db.hpp"
#include "results_fixtures.hpp"
#include "text_match.hpp"

#include <nlohmann/json.hpp>

using judge_test::contains;
using judge_test::run_judge;

namespace {
/// A store where alice submitted a wrong answer, then an accepted one; bob one accepted.
std::string make_store(const judge_test::temp_folder& dir) {
  const std::string file = (dir / "judge.db").string();
  judge::results_db db(file);
  judge::solution_result wrong = judge::testing::wrong_result("alice");
  wrong.graded_at = "2025-03-01T09:00:00Z";
  db.record(wrong);
  db.record(judge::testing::accepted_result("alice", 1234.5, "NVIDIA H200", "2025-03-02T09:00:00Z"));
  db.record(judge::testing::accepted_result("bob", 999, "NVIDIA H200", "2025-03-01T12:00:00Z"));
  return file;
}
} // namespace

TEST_CASE("judge history lists a problem's submissions newest first with the first failed case", "[cli][history]") {
  const judge_test::temp_folder dir;
  const std::string db = make_store(dir);
  const auto r = run_judge("history matmul --db " + db);
  CAPTURE(r.output);
  CHECK(r.status == 0);
  const auto newest = r.output.find("2025-03-02T09:00:00Z"), middle = r.output.find("2025-03-01T12:00:00Z"),
             oldest = r.output.find("2025-03-01T09:00:00Z");
  REQUIRE(oldest != std::string::npos);
  CHECK(newest < middle);
  CHECK(middle < oldest);
  CHECK(contains(r.output, "1234.5"));
  CHECK(contains(r.output, "square_1024 (hidden)"));
  CHECK(contains(r.output, "solutions/matmul/alice.cu"));
}

TEST_CASE("judge history of one author shows only theirs, and --json says the same", "[cli][history]") {
  const judge_test::temp_folder dir;
  const std::string db = make_store(dir);
  const auto text = run_judge("history matmul alice --db " + db);
  CHECK(text.status == 0);
  CHECK_FALSE(contains(text.output, "bob"));

  const auto r = run_judge("history matmul alice --json --db " + db);
  REQUIRE(r.status == 0);
  const auto doc = nlohmann::json::parse(r.output);
  REQUIRE(doc["submissions"].size() == 2);
  CHECK(doc["submissions"][0]["verdict"] == "AC");
  CHECK(doc["submissions"][0]["first_failed_case"].is_null());
  CHECK(doc["submissions"][1]["verdict"] == "WA");
  CHECK(doc["submissions"][1]["first_failed_case"]["name"] == "square_1024");
  CHECK(doc["submissions"][1]["first_failed_case"]["verdict"] == "WA");
}

TEST_CASE("no store yet is an empty history, and a --db that does not exist is a usage error", "[cli][history]") {
  const judge_test::scratch_root root;
  const auto none = run_judge("history matmul", root.environment());
  CHECK(none.status == 0);
  CHECK(contains(none.output, "No results for matmul yet"));
  CHECK_FALSE(std::filesystem::exists(root.dir / "results")); // reading never creates a store

  const auto missing = run_judge("history matmul --db " + (root.dir / "typo.db").string());
  CHECK(missing.status == 2);
  CHECK(contains(missing.output, (root.dir / "typo.db").string() + " does not exist"));
}

TEST_CASE("the leaderboard treats a missing store like history does", "[cli][leaderboard]") {
  const judge_test::scratch_root root;
  const auto none = run_judge("leaderboard matmul", root.environment());
  CHECK(none.status == 0);
  CHECK(contains(none.output, "No accepted, timed results for matmul yet"));

  const judge_test::temp_folder dir;
  const std::string empty = (dir / "empty.db").string();
  { judge::results_db created(empty); }
  const auto empty_store = run_judge("leaderboard matmul --db " + empty);
  CHECK(empty_store.status == 0);
  CHECK(contains(empty_store.output, "No accepted, timed results for matmul yet"));

  const auto missing = run_judge("leaderboard matmul --db " + (dir / "typo.db").string());
  CHECK(missing.status == 2);
  CHECK(contains(missing.output, "typo.db does not exist"));
}

TEST_CASE("leaderboard filters reach the command line", "[cli][leaderboard]") {
  const judge_test::temp_folder dir;
  const std::string db = make_store(dir);
  const auto before = run_judge("leaderboard matmul --before 2025-03-02 --db " + db);
  CAPTURE(before.output);
  CHECK(before.status == 0);
  CHECK(contains(before.output, "bob"));
  CHECK_FALSE(contains(before.output, "alice"));

  const auto anonymous = run_judge("leaderboard matmul --anonymise --latest --db " + db);
  CAPTURE(anonymous.output);
  CHECK(anonymous.status == 0);
  CHECK(contains(anonymous.output, "student 1")); // alice submitted first
  CHECK(contains(anonymous.output, "student 2"));
  CHECK_FALSE(contains(anonymous.output, "alice"));

  const auto bad = run_judge("leaderboard matmul --before yesterday --db " + db);
  CHECK(bad.status == 2);
  CHECK(contains(bad.output, "--before 'yesterday' is not a date"));
}

TEST_CASE("judge history marks an implausible result as not ranked, in text and JSON", "[cli][history]") {
  const judge_test::temp_folder dir;
  const std::string file = (dir / "judge.db").string();
  {
    judge::results_db db(file);
    db.record(judge::testing::implausible_result("mallory", 900000));
    db.record(judge::testing::accepted_result("bob", 999, "NVIDIA H200", "2025-03-01T12:00:00Z"));
  }
  const auto text = run_judge("history matmul --db " + file);
  CAPTURE(text.output);
  REQUIRE(text.status == 0);
  CHECK(contains(text.output, "solutions/matmul/mallory.cu  (implausible time: not ranked)"));
  CHECK_FALSE(contains(text.output, "bob.cu  (implausible"));
  const auto json = run_judge("history matmul mallory --json --db " + file);
  REQUIRE(json.status == 0);
  CHECK(nlohmann::json::parse(json.output)["submissions"][0]["implausible"] == true);
}

TEST_CASE("judge history lists a server's submissions compiled but not run, as the web's History does",
          "[cli][history]") {
  const judge_test::temp_folder dir;
  const std::string file = make_store(dir);
  {
    judge::results_db db(file);
    judge::service::submission_queue queue(db);
    const auto id = queue.enqueue("carol", "matmul", {{"carol.cu", "// carol"}});
    judge::solution_result not_run = judge::testing::accepted_result("carol", 0, "", "2025-03-03T09:00:00Z");
    not_run.compiled_only = true;
    not_run.v = judge::verdict::internal_error;
    not_run.case_set = "0123456789ab";
    REQUIRE(queue.finish(id, not_run, false, ""));
  }
  const auto r = run_judge("history matmul --db " + file);
  CAPTURE(r.output);
  CHECK(r.status == 0);
  CHECK(contains(r.output, "carol"));
  CHECK(contains(r.output, "NR"));
  CHECK(contains(r.output, "submission 1"));
  CHECK(contains(r.output, "0123456789ab*")); // not matmul's cases now
  CHECK(r.output.find("2025-03-03T09:00:00Z") < r.output.find("2025-03-02T09:00:00Z")); // newest first
  const auto json = nlohmann::json::parse(run_judge("history matmul --json --db " + file).output);
  CHECK(json["submissions"][0]["verdict"] == "NR");
  CHECK(json["submissions"][0]["case_set"] == "0123456789ab");
  CHECK(json["case_set"].get<std::string>().size() == 12);
}
