#include "catch.hpp"
#include "judge/base/utc_time.hpp"
#include "judge/course/gradebook.hpp"
#include "text_match.hpp"

#if JUDGE_CATCH_MAJOR >= 3
using Catch::Approx; // Catch2 2.13 declares it globally
#endif

using namespace judge;
using namespace judge::course;
using judge_test::contains;

namespace {
constexpr std::int64_t day = 86400;

store::handed_in row(std::int64_t id, const std::string& who, const std::string& problem, std::int64_t at,
                     const std::string& verdict, double score = 0) {
  store::handed_in h;
  h.id = id;
  h.account = who;
  h.problem = problem;
  h.submitted_at = utc_text(at);
  h.state = store::submission_state::done;
  if (!verdict.empty()) h.result = nlohmann::json{{"verdict", verdict}, {"score", score}, {"speed_unit", "GFLOPS"}};
  return h;
}

struct fixture {
  course_spec course;
  assignment a;
  fixture() {
    a.name = "a1";
    a.problems = {"matmul", "transpose"};
    a.release = 0;
    a.deadline = 10 * day;
    a.late = {late_policy::accept, 10, 50};
    a.extensions["carol"] = 12 * day;
    course.students["alice"] = "Alice Liddell";
    course.assignments = {a};
  }
};
} // namespace

TEST_CASE("the gradebook keeps each student's best counted result per problem, with counts and late flags",
          "[course][gradebook]") {
  fixture f;
  const std::vector<store::handed_in> rows = {
      row(1, "alice", "matmul", day, "WA"),
      row(2, "alice", "matmul", 2 * day, "AC", 1000),
      row(3, "alice", "matmul", 11 * day, "AC", 1500), // late one day: 1350, better still
      row(4, "bob", "matmul", 3 * day, "CE"),
      row(5, "bob", "transpose", 4 * day, "NR"),
      row(6, "carol", "matmul", 11 * day, "AC", 900), // within her extension
      row(7, "teacher", "matmul", day, "AC", 5000),   // an instructor: not in the gradebook
      row(8, "bob", "matmul", 5 * day, ""),           // still queued
      row(9, "dave", "other", day, "AC", 10),         // another problem
  };
  const gradebook g = build_gradebook(f.course, f.a, {"dave", "carol", "bob", "alice"}, {"teacher"}, rows);
  REQUIRE(g.rows.size() == 4);
  CHECK(g.rows[0].account == "alice");
  CHECK(g.rows[0].name == "Alice Liddell");
  const gradebook_cell& am = g.rows[0].cells[0];
  CHECK(am.submissions == 3);
  CHECK(am.late_submissions == 1);
  CHECK(am.verdict == "AC");
  CHECK(am.score == Approx(1350));
  CHECK(am.late_seconds == day);
  CHECK(am.submission == 3);
  CHECK(g.rows[0].cells[1].submissions == 0);
  const gradebook_cell& bm = g.rows[1].cells[0];
  CHECK(bm.submissions == 2);
  CHECK(bm.verdict == "CE");
  CHECK(g.rows[1].cells[1].verdict == "NR");
  CHECK(g.rows[2].account == "carol");
  CHECK(g.rows[2].cells[0].late_seconds == 0);
  CHECK(g.rows[2].cells[0].score == Approx(900));
  CHECK(g.rows[3].account == "dave");
  CHECK_FALSE(g.rows[3].submitted());

  const std::string csv = gradebook_csv(g);
  CHECK(csv.rfind("student_id,name,matmul,transpose,matmul_verdict,matmul_submissions,matmul_late_days,"
                  "transpose_verdict,transpose_submissions,transpose_late_days\r\n",
                  0) == 0);
  CHECK(contains(csv, "alice,Alice Liddell,1350.00,,AC,3,1,,0,\r\n"));
  CHECK(contains(csv, "bob,bob,0.00,0.00,CE,2,0,NR,1,0\r\n"));
  CHECK(contains(csv, "dave,dave,,,,0,,,0,\r\n"));
  const std::string text = gradebook_text(g);
  CHECK(contains(text, "AC 1350.0 (3) late 1d"));
  CHECK(contains(text, "4 student(s), 1 of them never submitted"));
}

TEST_CASE("under a refusing policy a late submission is counted but never graded in", "[course][gradebook]") {
  fixture f;
  f.a.late = late_rule{};
  const gradebook g =
      build_gradebook(f.course, f.a, {"alice"}, {}, {row(1, "alice", "matmul", 11 * day, "AC", 1500)});
  const gradebook_cell& c = g.rows[0].cells[0];
  CHECK(c.submissions == 1);
  CHECK(c.late_submissions == 1);
  CHECK_FALSE(c.graded);
  CHECK(contains(gradebook_csv(g), "alice,Alice Liddell,,,,1,,,0,\r\n"));
}
