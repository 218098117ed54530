#include "catch.hpp"
#include "text_match.hpp"

#include "judge/report/report_json.hpp"
#include "judge/report/report_terminal.hpp"
#include "judge/report/robustness_text.hpp"
#include "judge/report/contest_view.hpp"
#include "results_fixtures.hpp"

using namespace judge;
using judge_test::contains;

namespace {
case_result beyond(verdict v, const std::string& message) {
  case_result c;
  c.name = "n_2pow31";
  c.shape = "2147483647";
  c.hidden = true;
  c.v = v;
  c.message = message;
  c.beyond_limits = "N past LeetGPU's limit of 100,000,000";
  return c;
}
} // namespace

TEST_CASE("a robustness line says it changes nothing, why the case is beyond the limits and what happened",
          "[report]") {
  CHECK(robustness_line(beyond(verdict::run_time_error, "checked call 1: cudaErrorIllegalAddress")) ==
        "robustness (does not change the verdict or rank): n_2pow31 (N past LeetGPU's limit of 100,000,000): would "
        "fail at 2147483647: run-time error: checked call 1: cudaErrorIllegalAddress");
  CHECK(robustness_line(beyond(verdict::accepted, "")) ==
        "robustness (does not change the verdict or rank): n_2pow31 (N past LeetGPU's limit of 100,000,000): passes "
        "at 2147483647");
  CHECK(contains(robustness_line(beyond(verdict::internal_error, "the case needs 8.6 GB")),
                 "100,000,000): not run: the case needs 8.6 GB"));
  CHECK(contains(robustness_line(beyond(verdict::wrong_answer, "1 of 2 elements")), "would fail at 2147483647: wrong "
                                                                                    "answer: 1 of 2 elements"));
}

TEST_CASE("the terminal report and --json carry robustness results apart from the cases", "[report]") {
  solution_result r = judge::testing::accepted_result("alice", 15000);
  r.robustness.push_back(beyond(verdict::run_time_error, "checked call 1: the runner was killed by signal 11"));
  const std::string text = render_solution(r, "cuBLAS", terminal_style{});
  CAPTURE(text);
  CHECK(contains(text, "  robustness (does not change the verdict or rank): n_2pow31"));
  CHECK(contains(text, "would fail at 2147483647: run-time error"));
  const nlohmann::json j = to_json(r);
  REQUIRE(j.at("robustness").size() == 1);
  CHECK(j.at("robustness")[0].at("verdict") == "RTE");
  CHECK(contains(j.at("robustness")[0].at("text").get<std::string>(), "would fail at 2147483647"));
  CHECK(j.at("verdict") == "AC");
}

TEST_CASE("contest mode hides what a hidden robustness case did, and keeps its verdict", "[report]") {
  solution_result r = judge::testing::accepted_result("alice", 15000);
  r.robustness.push_back(beyond(verdict::wrong_answer, "first at index 5: expected 1.5, got 2.5"));
  const solution_result shown = contest_view(r);
  CHECK(shown.robustness.at(0).v == verdict::wrong_answer);
  CHECK_FALSE(contains(render_solution(shown, "cuBLAS", terminal_style{}), "expected 1.5"));
}
