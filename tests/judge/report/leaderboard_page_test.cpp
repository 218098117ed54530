// Writes the leaderboard page for the browser test (tests/scripts/browser_test.sh), from made-up results of
// three authors on two GPU models; on its own it checks the page is self-contained.
#include "catch.hpp"

#include "judge/report/leaderboard.hpp"
#include "results_fixtures.hpp"

#include <cstdlib>
#include <fstream>

using namespace judge;
using namespace judge::testing;
using judge_test::temp_folder;

TEST_CASE("the leaderboard page is written whole, with no reference to anything outside it", "[leaderboard][page]") {
  temp_folder dir;
  results_db db(dir / "judge.db");
  db.record(accepted_result("alice", 9000, "NVIDIA H200", "2025-03-01T10:00:00Z"));
  db.record(accepted_result("alice", 15000, "NVIDIA H200", "2025-03-02T10:00:00Z"));
  db.record(accepted_result("bob", 12000, "NVIDIA H200", "2025-03-01T11:00:00Z"));
  db.record(accepted_result("carol <script>", 7000, "NVIDIA A100", "2025-03-01T10:00:00Z"));
  const std::string html = leaderboard_html("matmul", build_leaderboard(db, "matmul"));
  CHECK(html.find("<table") != std::string::npos);
  CHECK(html.find("<svg") != std::string::npos);
  // Nothing is fetched when the page is viewed (an SVG namespace URI is a name, not a fetch).
  for (const char* fetch : {"src=\"http", "href=\"http", "url(http", "@import", "<link", "<script"}) {
    CAPTURE(fetch);
    CHECK(html.find(fetch) == std::string::npos);
  }
  const char* out = std::getenv("JUDGE_TEST_PAGE_OUT");
  const std::filesystem::path target = out && *out ? std::filesystem::path(out) : dir / "board.html";
  std::ofstream(target) << html;
  CHECK(std::filesystem::file_size(target) == html.size());
}
