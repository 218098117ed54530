#include "catch.hpp"
#include "judge/report/leaderboard.hpp"
#include "judge/report/leaderboard_svg.hpp"
#include "results_fixtures.hpp"
#include "text_match.hpp"

#include <nlohmann/json.hpp>

#include <cmath>

#if JUDGE_CATCH_MAJOR >= 3
using Catch::Approx; // Catch2 2.13 declares it globally
#endif

using namespace judge;
using judge::testing::accepted_result;
using judge::testing::wrong_result;
using judge_test::contains;
using judge_test::temp_folder;

namespace {

std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + part.size())) ++n;
  return n;
}

/// Three authors on an H200 (alice twice), one on an A100, one wrong answer.
std::vector<leaderboard> sample_boards(results_db& db) {
  db.record(accepted_result("alice", 9000, "NVIDIA H200", "2025-03-01T10:00:00Z"));
  db.record(accepted_result("alice", 15000, "NVIDIA H200", "2025-03-02T10:00:00Z"));
  db.record(accepted_result("bob", 12000, "NVIDIA H200", "2025-03-01T11:00:00Z"));
  db.record(accepted_result("carol", 12000, "NVIDIA H200", "2025-03-01T09:00:00Z"));
  db.record(accepted_result("dan", 7000, "NVIDIA A100", "2025-03-01T10:00:00Z"));
  db.record(wrong_result("eve"));
  return build_leaderboard(db, "matmul");
}

} // namespace

TEST_CASE("the leaderboard ranks each author's best accepted result, one board per GPU model", "[leaderboard]") {
  temp_folder dir;
  results_db db(dir / "judge.db");
  const auto boards = sample_boards(db);
  REQUIRE(boards.size() == 2);

  const leaderboard& a100 = boards[0];
  CHECK(a100.device.name == "NVIDIA A100");
  REQUIRE(a100.entries.size() == 1);
  CHECK(a100.entries[0].author == "dan");

  const leaderboard& h200 = boards[1];
  CHECK(h200.device.name == "NVIDIA H200");
  CHECK(h200.device.cc == "9.0");
  CHECK(h200.device.fp32_peak_gflops == 60000);
  CHECK(h200.device.measured_bandwidth_gbps == 4000);
  REQUIRE(h200.entries.size() == 3);
  CHECK(h200.entries[0].author == "alice");
  CHECK(h200.entries[0].score == 15000);
  CHECK(h200.entries[1].author == "carol"); // ties with bob, graded earlier
  CHECK(h200.entries[2].author == "bob");
  for (std::size_t i = 0; i < h200.entries.size(); ++i) CHECK(h200.entries[i].rank == static_cast<int>(i) + 1);
  for (const leaderboard& b : boards)
    for (const board_entry& e : b.entries) CHECK(e.author != "eve");
}

TEST_CASE("an implausible result is left off the board and counted, its author ranked by a plausible one",
          "[leaderboard]") {
  temp_folder dir;
  results_db db(dir / "judge.db");
  db.record(accepted_result("alice", 9000));
  db.record(judge::testing::implausible_result("alice", 900000));
  db.record(judge::testing::implausible_result("mallory", 800000));
  db.record(accepted_result("bob", 12000));
  const auto boards = build_leaderboard(db, "matmul");
  REQUIRE(boards.size() == 1);
  REQUIRE(boards[0].entries.size() == 2);
  CHECK(boards[0].entries[0].author == "bob");
  CHECK(boards[0].entries[1].author == "alice");
  CHECK(boards[0].entries[1].score == 9000);
  CHECK(boards[0].implausible_left_out == 2);
  CHECK(contains(leaderboard_text("matmul", boards), "not ranked: 2 accepted result(s)"));
  CHECK(nlohmann::json::parse(leaderboard_json("matmul", boards))["boards"][0]["implausible_left_out"] == 2);

  // The same from results already loaded (a filtered board).
  board_filter latest;
  latest.latest = true;
  const auto filtered = build_leaderboard(db, "matmul", latest);
  REQUIRE(filtered.size() == 1);
  CHECK(filtered[0].entries.size() == 1); // alice's latest is the implausible one: not ranked
  CHECK(filtered[0].entries[0].author == "bob");
  CHECK(filtered[0].implausible_left_out == 2);
}

TEST_CASE("the bandwidth roof is the DRAM peak, or the measured copy for results stored without one", "[leaderboard]") {
  temp_folder dir;
  results_db db(dir / "judge.db");
  leaderboard h200 = sample_boards(db)[1];
  CHECK(h200.device.dram_peak_gbps == 4800);
  CHECK(bandwidth_peak(h200.device) == 4800);
  CHECK(peaks_text(h200) == "fp32 peak 60000 GFLOPS, DRAM peak 4800 GB/s (copy measured 4000 GB/s)");
  h200.device.dram_peak_gbps = 0;
  CHECK(bandwidth_peak(h200.device) == 4000);
  CHECK(peaks_text(h200) == "fp32 peak 60000 GFLOPS, measured bandwidth 4000 GB/s");
  CHECK(contains(roofline_svg(h200), ">measured bandwidth 4000 GB/s</text>"));
}

TEST_CASE("a board's columns are the timed hidden cases, with the baseline's speeds", "[leaderboard]") {
  temp_folder dir;
  results_db db(dir / "judge.db");
  const leaderboard h200 = sample_boards(db)[1];
  REQUIRE(h200.cases.size() == 2); // the untimed sample case is not ranked
  CHECK(h200.cases[0].name == "square_1024");
  CHECK(h200.cases[0].baseline_speed == 20000);
  CHECK(h200.cases[0].flops == 2.0 * 1024 * 1024 * 1024);
  CHECK(h200.baseline_score == Approx(20000));
  const board_entry& alice = h200.entries[0];
  REQUIRE(alice.cells.size() == 2);
  REQUIRE(alice.cells[0].has_value());
  CHECK(alice.cells[0]->speed == 15000);
  CHECK(alice.cells[0]->pct_of_baseline == Approx(75));
  CHECK(pct_of_baseline_score(h200, alice) == Approx(75));
  // Two cases of intensity n/6 (2n³ flops over 12n² bytes): their geometric mean.
  CHECK(alice.intensity == Approx(std::sqrt(1024.0 / 6 * 2048.0 / 6)));
  CHECK(alice.gflops == 15000);
}

TEST_CASE("a problem without accepted timed results has no boards", "[leaderboard]") {
  temp_folder dir;
  results_db db(dir / "judge.db");
  db.record(wrong_result("eve"));
  solution_result untimed = accepted_result("frank", 100);
  untimed.score = 0;
  db.record(untimed);
  const auto boards = build_leaderboard(db, "matmul");
  CHECK(boards.empty());
  CHECK(contains(leaderboard_text("matmul", boards), "No accepted"));
  CHECK(contains(leaderboard_html("matmul", boards), "No accepted"));
}

TEST_CASE("the HTML page holds the ranking table and both charts, with nothing fetched", "[leaderboard][html]") {
  temp_folder dir;
  results_db db(dir / "judge.db");
  const std::string html = leaderboard_html("matmul", sample_boards(db));
  CHECK(contains(html, "<!DOCTYPE html>"));
  CHECK(contains(html, "<h2>NVIDIA H200 "));
  CHECK(contains(html, "<h2>NVIDIA A100 "));
  CHECK(occurrences(html, "<table class=\"ranking\">") == 2);
  CHECK(contains(html, "<td>alice</td>"));
  CHECK(occurrences(html, "<svg ") == 4); // a bar chart and a roofline per board
  CHECK(contains(html, "<rect class=\"bar\""));
  CHECK(contains(html, "<line class=\"baseline\""));
  CHECK(contains(html, "baseline 20000.0 GFLOPS"));
  CHECK(contains(html, "<polyline class=\"roof\""));
  CHECK(contains(html, "fp32 peak 60000 GFLOPS"));
  CHECK(contains(html, "DRAM peak 4800 GB/s (copy measured 4000 GB/s)"));
  CHECK(contains(html, ">DRAM peak 4800 GB/s</text>")); // the roofline's slanted roof
  CHECK(contains(html, ">100k</text>"));                // axis labels in k and M
  CHECK_FALSE(contains(html, "<script"));
  CHECK_FALSE(contains(html, "http://") != contains(html, "http://www.w3.org/2000/svg"));
  CHECK_FALSE(contains(html, "https://"));
}

TEST_CASE("the roofline's axis labels read 1M, not 1e+06", "[leaderboard][html]") {
  temp_folder dir;
  results_db db(dir / "judge.db");
  leaderboard board = sample_boards(db).front();
  board.device.fp32_peak_gflops = 700000; // puts the top of the axis at 10^6
  const std::string svg = roofline_svg(board);
  CHECK(contains(svg, ">1M</text>"));
  CHECK(contains(svg, ">100k</text>"));
  CHECK_FALSE(contains(svg, "e+0"));
}

TEST_CASE("the HTML page escapes every name from the store", "[leaderboard][html]") {
  temp_folder dir;
  results_db db(dir / "judge.db");
  solution_result r = accepted_result("<script>alert(\"x\")</script>", 100);
  r.device.name = "GPU & <b>friends</b>";
  r.cases[1].name = "a<b";
  r.path = "solutions/matmul/\"quoted\".cu";
  db.record(r);
  const std::string html = leaderboard_html("mat<mul>", build_leaderboard(db, "matmul"));
  CHECK_FALSE(contains(html, "<script"));
  CHECK_FALSE(contains(html, "<b>"));
  CHECK_FALSE(contains(html, "a<b"));
  CHECK_FALSE(contains(html, "mat<mul>"));
  CHECK(contains(html, "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"));
  CHECK(contains(html, "GPU &amp; &lt;b&gt;friends&lt;/b&gt;"));
  CHECK(contains(html, "&quot;quoted&quot;.cu"));
}

TEST_CASE("the bar chart marks the baseline only when there is one", "[leaderboard][html]") {
  temp_folder dir;
  results_db db(dir / "judge.db");
  solution_result r = accepted_result("alice", 100);
  for (case_result& c : r.cases) c.baseline_speed = 0, c.baseline_timing.reset();
  db.record(r);
  const auto boards = build_leaderboard(db, "matmul");
  REQUIRE(boards.size() == 1);
  CHECK(boards[0].baseline_score == 0);
  const std::string svg = score_bar_chart_svg(boards[0]);
  CHECK(contains(svg, "<rect class=\"bar\""));
  CHECK_FALSE(contains(svg, "class=\"baseline\""));
}

TEST_CASE("the bar chart cuts long names to fit, keeping the full name as a tooltip", "[leaderboard][html]") {
  temp_folder dir;
  results_db db(dir / "judge.db");
  const std::string name = "Bartholomew Aloysius Featherstonehaugh";
  db.record(accepted_result(name, 100));
  const std::string svg = score_bar_chart_svg(build_leaderboard(db, "matmul").at(0));
  CHECK(contains(svg, "<title>" + name + "</title>"));
  CHECK(contains(svg, "1. Bartholomew Aloysiu\u2026</text>"));
}

TEST_CASE("the roofline explains itself when intensity is unknown", "[leaderboard][html]") {
  temp_folder dir;
  results_db db(dir / "judge.db");
  solution_result r = accepted_result("alice", 100);
  for (case_result& c : r.cases) c.flops = 0;
  db.record(r);
  const std::string svg = roofline_svg(build_leaderboard(db, "matmul").at(0));
  CHECK(contains(svg, "No roofline"));
  CHECK_FALSE(contains(svg, "<svg"));
}

TEST_CASE("CSV fields are quoted per RFC 4180", "[leaderboard][csv]") {
  auto [field, expected] = GENERATE(table<std::string, std::string>({
      {"alice", "alice"},
      {"Liddell, Alice", "\"Liddell, Alice\""},
      {"say \"hi\"", "\"say \"\"hi\"\"\""},
      {"two\nlines", "\"two\nlines\""},
      {"", ""},
  }));
  CHECK(judge::csv_field(field) == expected);
}

TEST_CASE("the leaderboard CSV has a header and one row per entry and case", "[leaderboard][csv]") {
  temp_folder dir;
  results_db db(dir / "judge.db");
  db.record(accepted_result("Liddell, Alice", 100));
  const std::string csv = leaderboard_csv(build_leaderboard(db, "matmul"));
  CHECK(csv.rfind("device,cc,rank,author,score,", 0) == 0);
  CHECK(occurrences(csv, "\r\n") == 3);
  CHECK(contains(csv, "NVIDIA H200,9.0,1,\"Liddell, Alice\",100,GFLOPS,"));
}

TEST_CASE("the leaderboard JSON and text carry the same ranking", "[leaderboard]") {
  temp_folder dir;
  results_db db(dir / "judge.db");
  const auto boards = sample_boards(db);
  const auto doc = nlohmann::json::parse(leaderboard_json("matmul", boards));
  CHECK(doc["problem"] == "matmul");
  REQUIRE(doc["boards"].size() == 2);
  CHECK(doc["boards"][1]["device"]["name"] == "NVIDIA H200");
  CHECK(doc["boards"][1]["entries"][0]["author"] == "alice");
  CHECK(doc["boards"][1]["entries"][0]["cases"][0]["speed"] == 15000.0);
  CHECK(doc["boards"][1]["cases"][1]["baseline_speed"] == 20000.0);

  const std::string text = leaderboard_text("matmul", boards);
  CHECK(contains(text, "matmul on NVIDIA H200 (cc 9.0)"));
  CHECK(text.find("alice") < text.find("carol"));
  CHECK(text.find("carol") < text.find("bob"));
  CHECK(contains(text, "baseline"));
}

TEST_CASE("a leaderboard built from loaded results keeps each author's best", "[leaderboard]") {
  const auto boards = build_leaderboard({accepted_result("alice", 100, "NVIDIA H200", "2025-03-01T10:00:00Z"),
                                         accepted_result("alice", 300, "NVIDIA H200", "2025-03-03T10:00:00Z"),
                                         accepted_result("alice", 300, "NVIDIA H200", "2025-03-02T10:00:00Z"),
                                         accepted_result("bob", 200), wrong_result("carol")});
  REQUIRE(boards.size() == 1);
  REQUIRE(boards[0].entries.size() == 2);
  CHECK(boards[0].entries[0].author == "alice");
  CHECK(boards[0].entries[0].graded_at == "2025-03-02T10:00:00Z");
  CHECK(boards[0].entries[1].author == "bob");
}

namespace {
std::vector<std::string> authors_of(const leaderboard& board) {
  std::vector<std::string> names;
  for (const board_entry& e : board.entries) names.push_back(e.author);
  return names;
}

/// alice improves then regresses to a wrong answer; bob submits once, late.
std::vector<solution_result> filter_history() {
  solution_result alice_wrong = wrong_result("alice");
  alice_wrong.graded_at = "2025-03-05T08:00:00Z";
  return {accepted_result("carol", 500, "NVIDIA H200", "2025-02-28T09:00:00Z"),
          accepted_result("alice", 100, "NVIDIA H200", "2025-03-01T10:00:00Z"),
          accepted_result("alice", 300, "NVIDIA H200", "2025-03-02T10:00:00Z"),
          accepted_result("carol", 200, "NVIDIA H200", "2025-03-03T09:00:00Z"),
          alice_wrong,
          accepted_result("bob", 400, "NVIDIA H200", "2025-03-06T12:00:00Z")};
}
} // namespace

TEST_CASE("a board before a date keeps only results graded before the moment given", "[leaderboard][filter]") {
  board_filter filter;
  filter.before = parse_before("2025-03-02");
  auto boards = build_leaderboard(filter_history(), filter);
  REQUIRE(boards.size() == 1);
  CHECK(authors_of(boards[0]) == std::vector<std::string>{"carol", "alice"});
  CHECK(boards[0].entries[1].score == 100); // alice's 300 came on the 2nd

  filter.before = parse_before("2025-03-02T10:00:01");
  boards = build_leaderboard(filter_history(), filter);
  CHECK(boards[0].entries[1].score == 300);
}

TEST_CASE("dates for --before are read as UTC and anything else is refused", "[leaderboard][filter]") {
  CHECK(parse_before("2025-03-02") == "2025-03-02T00:00:00Z");
  CHECK(parse_before("2025-03-02T10:30") == "2025-03-02T10:30:00Z");
  CHECK(parse_before("2025-03-02 10:30:15") == "2025-03-02T10:30:15Z");
  CHECK(parse_before("2025-03-02T10:30:15Z") == "2025-03-02T10:30:15Z");
  for (const char* bad : {"yesterday", "2025-3-2", "2025-13-01", "2025-03-02T25:00", "2025-03-02T10:30:15+01:00"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(parse_before(bad), std::invalid_argument);
  }
}

TEST_CASE("a board of latest submissions ranks each author's latest submission and leaves out a latest that failed",
          "[leaderboard][filter]") {
  board_filter filter;
  filter.latest = true;
  const auto boards = build_leaderboard(filter_history(), filter);
  REQUIRE(boards.size() == 1);
  // alice's latest is a wrong answer; carol's latest (200) replaces her best (500).
  CHECK(authors_of(boards[0]) == std::vector<std::string>{"bob", "carol"});
  CHECK(boards[0].entries[1].score == 200);
}

TEST_CASE("an anonymised board numbers authors by first submission in every format, and drops paths",
          "[leaderboard][filter]") {
  board_filter filter;
  filter.anonymise = true;
  const auto boards = build_leaderboard(filter_history(), filter);
  REQUIRE(boards.size() == 1);
  // carol submitted first, then alice, then bob; ranked by best: carol 500, bob 400, alice 300.
  CHECK(authors_of(boards[0]) == std::vector<std::string>{"student 1", "student 3", "student 2"});
  for (const std::string& text : {leaderboard_text("matmul", boards), leaderboard_csv(boards),
                                  leaderboard_json("matmul", boards), leaderboard_html("matmul", boards)}) {
    CHECK_FALSE(contains(text, "alice"));
    CHECK_FALSE(contains(text, "carol"));
    CHECK(contains(text, "student 3"));
  }
  // A filter does not renumber: the names stay the same from one published board to the next.
  filter.before = parse_before("2025-03-04");
  CHECK(authors_of(build_leaderboard(filter_history(), filter)[0]) ==
        std::vector<std::string>{"student 1", "student 2"});
}

TEST_CASE("a board marks entries graded on older cases and ranks a regraded author by the new grades",
          "[leaderboard][filter]") {
  solution_result alice_old = accepted_result("alice", 15000, "NVIDIA H200", "2025-03-01T10:00:00Z");
  alice_old.case_set = "000000000001";
  solution_result alice_new = accepted_result("alice", 9000, "NVIDIA H200", "2025-03-03T10:00:00Z");
  alice_new.case_set = "000000000002";
  solution_result bob_old = accepted_result("bob", 12000, "NVIDIA H200", "2025-03-01T11:00:00Z");
  bob_old.case_set = "000000000001";
  const solution_result carol_unknown = accepted_result("carol", 8000, "NVIDIA H200", "2025-02-01T11:00:00Z");
  board_filter now;
  now.current_case_set = "000000000002";
  const auto boards = build_leaderboard({alice_old, alice_new, bob_old, carol_unknown}, now);
  REQUIRE(boards.size() == 1);
  const auto& entries = boards[0].entries;
  REQUIRE(entries.size() == 3);
  CHECK(entries[0].author == "bob");
  CHECK(entries[0].older_cases);
  CHECK(entries[1].author == "alice"); // her old 15000 no longer ranks: the rejudge's 9000 does
  CHECK(entries[1].score == 9000);
  CHECK_FALSE(entries[1].older_cases);
  CHECK(entries[2].author == "carol");
  CHECK(entries[2].older_cases);

  const std::string text = leaderboard_text("matmul", boards);
  CAPTURE(text);
  CHECK(contains(text, "000000000001*"));
  CHECK(contains(text, "unknown*"));
  CHECK(contains(text, "000000000002 "));
  CHECK(contains(text, older_cases_note));
  const auto json = nlohmann::json::parse(leaderboard_json("matmul", boards));
  CHECK(json["boards"][0]["entries"][0]["case_set"] == "000000000001");
  CHECK(json["boards"][0]["entries"][0]["older_cases"] == true);
  CHECK(json["boards"][0]["entries"][1]["older_cases"] == false);
  const std::string html = leaderboard_html("matmul", boards);
  CHECK(contains(html, "class=\"older\""));
  CHECK(contains(html, older_cases_note.substr(0, 30)));
}

TEST_CASE("a board without a current case set marks nothing and ranks every author's best", "[leaderboard][filter]") {
  solution_result old = accepted_result("alice", 15000, "NVIDIA H200", "2025-03-01T10:00:00Z");
  old.case_set = "000000000001";
  solution_result regraded = accepted_result("alice", 9000, "NVIDIA H200", "2025-03-03T10:00:00Z");
  regraded.case_set = "000000000002";
  const auto boards = build_leaderboard({old, regraded}, board_filter{});
  REQUIRE(boards.at(0).entries.size() == 1);
  CHECK(boards[0].entries[0].score == 15000);
  CHECK_FALSE(boards[0].entries[0].older_cases);
  CHECK_FALSE(contains(leaderboard_text("matmul", boards), older_cases_note));
}
