#include "catch.hpp"
#include "judge/store/handed_in.hpp"
#include "previous_store.hpp"
#include "temp_folder.hpp"

using namespace judge;
using judge_test::temp_folder;

TEST_CASE("a store made before the course keeps its queue readable: no assignment, never late", "[store][course]") {
  temp_folder dir;
  {
    sqlite::database by_hand(dir / "old.db");
    for (const char* sql : judge::testing::previous_store::all) by_hand.exec(sql);
    by_hand.exec("INSERT INTO queued_submissions (account, problem, files, state, submitted_at, result) VALUES "
                 "('alice', 'matmul', '[]', 'failed', '2025-03-01T10:00:00Z', NULL), "
                 "('bob', 'transpose', '[]', 'queued', '2025-03-01T10:00:01Z', NULL), "
                 "('carol', 'matmul', '[]', 'queued', '2025-03-01T10:00:02Z', NULL)");
  }
  results_db migrated(dir / "old.db");
  const auto rows = store::handed_in_to(migrated, {"matmul"});
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].account == "alice");
  CHECK(rows[0].state == store::submission_state::failed);
  CHECK(rows[0].submitted_at == "2025-03-01T10:00:00Z");
  CHECK_FALSE(rows[0].result);
  CHECK_FALSE(rows[0].result_id);
  CHECK(rows[0].assignment.empty());
  CHECK(rows[0].late_seconds == 0);
  CHECK(rows[1].account == "carol");
  CHECK_FALSE(rows[1].result);
  CHECK(store::handed_in_to(migrated, {"transpose", "matmul"}).size() == 3);
}
