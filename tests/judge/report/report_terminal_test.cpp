#include "catch.hpp"

#include "judge/report/contest_view.hpp"
#include "judge/report/report_terminal.hpp"

using namespace judge;

namespace {
solution_result failed_on(bool hidden) {
  solution_result r;
  r.path = "solutions/matmul/alice.cu";
  r.v = verdict::wrong_answer;
  r.speed_unit = "GFLOPS";
  case_result c;
  c.name = "ragged_1001x513x777";
  c.shape = "1001x513x777";
  c.hidden = hidden;
  c.v = verdict::wrong_answer;
  c.message =
      "checked call 1: 3 of 777777 elements of C are wrong; first at index 778 (row 1, col 1): expected 1.5, got 2.5";
  r.message = "case ragged_1001x513x777 (1001x513x777, hidden): " + c.message;
  r.cases.push_back(c);
  r.learner_output = "debug: A[0]=0.123\n";
  return r;
}
} // namespace

TEST_CASE("a failed case is shown with its shape, first wrong index, expected and got", "[report]") {
  const std::string text = render_solution(failed_on(true), "cuBLAS", terminal_style{});
  CHECK(text.find("1001x513x777") != std::string::npos);
  CHECK(text.find("row 1, col 1") != std::string::npos);
  CHECK(text.find("expected 1.5, got 2.5") != std::string::npos);
  CHECK(text.find("WA") != std::string::npos);
  CHECK(text.find("\033[") == std::string::npos); // no colour unless asked
}

TEST_CASE("cases an earlier failure left unrun are named in one line with the reason", "[report]") {
  solution_result r = failed_on(true);
  CHECK(render_solution(r, "cuBLAS", terminal_style{}).find("not run") == std::string::npos);
  r.cases_not_run = {"a_1", "a_2", "a_3", "a_4", "a_5", "a_6", "a_7", "a_8"};
  r.cases_not_run_reason = "case ragged_1001x513x777 decided the verdict (WA)";
  const std::string text = render_solution(r, "cuBLAS", terminal_style{});
  CHECK(text.find("not run: 8 cases (a_1, a_2, a_3, a_4, a_5, a_6 and 2 more): case ragged_1001x513x777 decided "
                  "the verdict (WA)") != std::string::npos);
}

TEST_CASE("a note several cases share is said once, naming them all, and a note of one case names it", "[report]") {
  solution_result r = failed_on(true);
  const std::string why = "not timed: a solution is timed once every case passes, and case ragged_1001x513x777 failed";
  for (const char* name : {"square_1024", "square_2048"}) {
    case_result c;
    c.name = name;
    c.shape = "1024x1024x1024";
    c.v = verdict::accepted;
    c.feedback = why;
    r.cases.insert(r.cases.begin(), c);
  }
  r.cases.front().feedback = "launch gaps: 4 us";
  r.cases.insert(r.cases.begin(), r.cases.at(1)); // a third case with the shared note, first in order
  r.cases.front().name = "square_512";
  const std::string text = render_solution(r, "cuBLAS", terminal_style{});
  CAPTURE(text);
  CHECK(text.find("  note on square_512, square_1024: " + why + "\n") != std::string::npos);
  CHECK(text.find("  note on square_2048: launch gaps: 4 us\n") != std::string::npos);
  CHECK(text.find("note on square_1024: not timed") == std::string::npos);
}

TEST_CASE("contest mode keeps a hidden case to name, shape and verdict, and samples whole", "[report]") {
  const std::string hidden = render_solution(contest_view(failed_on(true)), "cuBLAS", terminal_style{});
  CHECK(hidden.find("ragged_1001x513x777") != std::string::npos);
  CHECK(hidden.find("1001x513x777") != std::string::npos);
  CHECK(hidden.find("expected 1.5") == std::string::npos);
  CHECK(hidden.find("A[0]=0.123") == std::string::npos);
  const std::string sample = render_solution(contest_view(failed_on(false)), "cuBLAS", terminal_style{});
  CHECK(sample.find("expected 1.5, got 2.5") != std::string::npos);
}

TEST_CASE("the closing summary counts verdicts and names the fastest accepted solution", "[report]") {
  solution_result fast;
  fast.path = "fast.cu";
  fast.v = verdict::accepted;
  fast.score = 900;
  fast.speed_unit = "GFLOPS";
  solution_result slow = fast;
  slow.path = "slow.cu";
  slow.score = 100;
  const std::string text = render_summary({slow, fast, failed_on(true)}, terminal_style{});
  CHECK(text.find("3 solution(s)") != std::string::npos);
  CHECK(text.find("2 AC") != std::string::npos);
  CHECK(text.find("1 WA") != std::string::npos);
  CHECK(text.find("fastest accepted: fast.cu") != std::string::npos);
}

TEST_CASE("the summary says when solutions ran outside the sandbox, and why", "[report]") {
  solution_result inside = failed_on(true);
  inside.sandbox = {sandbox_mode::on, ""};
  solution_result refused = inside;
  refused.sandbox = {sandbox_mode::unavailable, "unshare: Operation not permitted"};
  solution_result asked_off = inside;
  asked_off.sandbox = {sandbox_mode::off, ""};
  CHECK(render_summary({inside}, terminal_style{}).find("sandbox on with cgroup limits for 1 solution(s)\n") !=
        std::string::npos);
  const std::string text = render_summary({inside, refused, refused, asked_off}, terminal_style{});
  CHECK(text.find("sandbox unavailable: unshare: Operation not permitted for 2 solution(s)") != std::string::npos);
  CHECK(text.find("sandbox off (--no-sandbox) for 1 solution(s)") != std::string::npos);
}

TEST_CASE("the summary says which sandbox layers were missing, and why", "[report]") {
  solution_result partly = failed_on(true);
  partly.sandbox = {sandbox_mode::on, ""};
  partly.sandbox.layers.set_missing(sandbox_layer::cgroup, "cgroup v2 is not mounted");
  const std::string text = render_summary({partly, partly}, terminal_style{});
  CHECK(text.find("sandbox on for 2 solution(s), but without cgroup limits (cgroup v2 is not mounted)") !=
        std::string::npos);
  CHECK(text.find("with cgroup limits") == std::string::npos);
}

TEST_CASE("skipped entries are listed one a line with a reason to act on", "[report]") {
  CHECK(render_skipped({}).empty());
  const std::string text = render_skipped({{"class/dave/s.CU", skip_reason::upper_case_cu},
                                           {"class/loop", skip_reason::link_loop},
                                           {"class/erin", skip_reason::no_cu_files}});
  CHECK(text.find("skipped 3 entries") != std::string::npos);
  CHECK(text.find("  class/dave/s.CU: rename it to .cu") != std::string::npos);
  CHECK(text.find("  class/loop: a symbolic link loop") != std::string::npos);
  CHECK(text.find("  class/erin: no .cu file") != std::string::npos);
}

TEST_CASE("solutions an interrupt left are named as not graded", "[report]") {
  CHECK(render_not_graded({}).empty());
  const std::string text = render_not_graded({"a.cu", "bob/"});
  CHECK(text.find("not graded") != std::string::npos);
  CHECK(text.find("a.cu bob/") != std::string::npos);
}
