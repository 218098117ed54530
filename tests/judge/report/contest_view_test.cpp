// The contest view of a result (report/contest_view.hpp): what it keeps of a failed hidden case and of the rest.
#include "catch.hpp"

#include "judge/report/contest_view.hpp"

#include <string>

using namespace judge;

namespace {
case_result failed_case(const std::string& name, bool hidden) {
  case_result c;
  c.name = name;
  c.shape = "1001x513x777";
  c.hidden = hidden;
  c.v = verdict::wrong_answer;
  c.message = "checked call 1: 3 of 777777 elements of C are wrong; first at index 778: expected 1.5, got 2.5";
  c.sanitizer.push_back({});
  return c;
}

solution_result failed_on(bool hidden) {
  solution_result r;
  r.v = verdict::wrong_answer;
  r.cases.push_back(failed_case("ragged_1001x513x777", hidden));
  r.message =
      "case ragged_1001x513x777 (1001x513x777" + std::string(hidden ? ", hidden" : "") + "): " + r.cases[0].message;
  r.learner_output = "debug: A[0]=0.123\n";
  return r;
}
} // namespace

TEST_CASE("the contest view keeps a failed hidden case to its name, shape and verdict", "[contest]") {
  const solution_result shown = contest_view(failed_on(true));
  REQUIRE(shown.cases.size() == 1);
  CHECK(shown.cases[0].name == "ragged_1001x513x777");
  CHECK(shown.cases[0].shape == "1001x513x777");
  CHECK(shown.cases[0].v == verdict::wrong_answer);
  CHECK(shown.cases[0].message == "details of hidden cases are not shown");
  CHECK(shown.cases[0].sanitizer.empty());
  CHECK(shown.message == "case ragged_1001x513x777 (1001x513x777, hidden): WA");
  CHECK(shown.learner_output.empty());
  CHECK(shown.v == verdict::wrong_answer);
}

TEST_CASE("the contest view keeps a sample case and an accepted hidden case whole", "[contest]") {
  const solution_result sample = failed_on(false);
  const solution_result shown = contest_view(sample);
  CHECK(shown.cases[0].message == sample.cases[0].message);
  CHECK(shown.cases[0].sanitizer.size() == 1);
  CHECK(shown.message == sample.message);

  solution_result accepted = failed_on(true);
  accepted.cases[0].v = verdict::accepted;
  accepted.cases[0].message = "ok";
  CHECK(contest_view(accepted).cases[0].message == "ok");
}

TEST_CASE("the contest view leaves out the explanation of a failed hidden case and keeps a sample case's",
          "[contest][sanitizer]") {
  for (const bool hidden : {true, false}) {
    CAPTURE(hidden);
    solution_result r = failed_on(hidden);
    r.sanitizer.state = explanation_state::pending;
    r.sanitizer.case_name = "ragged_1001x513x777";
    r.sanitizer.tools = {sanitizer_tool::memcheck};
    CHECK(contest_view(r).sanitizer.state == (hidden ? explanation_state::none : explanation_state::pending));
  }
}
