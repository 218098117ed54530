#include "catch.hpp"
#include "judge/base/utc_time.hpp"
#include "judge/course/assignment_board.hpp"
#include "results_fixtures.hpp"

#if JUDGE_CATCH_MAJOR >= 3
using Catch::Approx; // Catch2 2.13 declares it globally
#endif

using namespace judge;
using namespace judge::course;
using judge::testing::accepted_result;

namespace {
constexpr std::int64_t day = 86400;

store::handed_in row(std::int64_t id, const std::string& who, std::int64_t at, std::int64_t result_id) {
  store::handed_in h;
  h.id = id;
  h.account = who;
  h.problem = "matmul";
  h.submitted_at = utc_text(at);
  h.state = store::submission_state::done;
  h.result = nlohmann::json::object();
  h.result_id = result_id;
  return h;
}
} // namespace

TEST_CASE("an assignment's board ranks what was in time and late results less their penalty", "[course][board]") {
  assignment a;
  a.name = "a1";
  a.problems = {"matmul"};
  a.deadline = 10 * day;
  a.late = {late_policy::accept, 25, 0};
  const std::vector<std::pair<std::int64_t, solution_result>> recorded = {
      {101, accepted_result("alice", 1000, "NVIDIA H200", "2026-01-01T00:00:01Z")},
      {102, accepted_result("bob", 1200, "NVIDIA H200", "2026-01-01T00:00:02Z")},
      {103, accepted_result("carol", 800, "NVIDIA H200", "2026-01-01T00:00:03Z")}};
  // bob's 1200 was two days late: it counts at 50%, 600, below carol.
  const std::vector<store::handed_in> rows = {row(1, "alice", day, 101), row(2, "bob", 12 * day, 102),
                                              row(3, "carol", 9 * day, 103)};
  auto boards = build_assignment_boards(a, rows, recorded, [](const std::string& n) { return n; }, false);
  REQUIRE(boards.size() == 1);
  REQUIRE(boards[0].boards.size() == 1);
  const auto& entries = boards[0].boards[0].entries;
  REQUIRE(entries.size() == 3);
  CHECK(entries[0].author == "alice");
  CHECK(entries[1].author == "carol");
  CHECK(entries[2].author == "bob");
  CHECK(entries[2].score == Approx(600));
  CHECK_FALSE(entries[0].path.empty());
  REQUIRE(boards[0].late.size() == 1);
  CHECK(boards[0].late[0].author == "bob");
  CHECK(boards[0].late[0].kept == Approx(0.5));

  SECTION("refusing late results, the board leaves them out") {
    a.late = late_rule{};
    boards = build_assignment_boards(a, rows, recorded, [](const std::string& n) { return n; }, false);
    CHECK(boards[0].boards[0].entries.size() == 2);
    CHECK(boards[0].late.empty());
  }
  SECTION("pseudonymous, names, paths and hashes are left out") {
    boards = build_assignment_boards(a, rows, recorded, [](const std::string& n) { return "p-" + n; }, true);
    for (const board_entry& e : boards[0].boards[0].entries) {
      CHECK(e.author.rfind("p-", 0) == 0);
      CHECK(e.path.empty());
      CHECK(e.content_hash.empty());
    }
    CHECK(boards[0].late[0].author == "p-bob");
  }
}
