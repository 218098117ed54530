// The access policy alone, without a server: who sees which submission, whose a list holds, who gets the
// contest view, and what the contest view keeps of a result.
#include "catch.hpp"

#include "judge/service/queue/access_policy.hpp"

#include <string>

using namespace judge;
using namespace judge::service;

namespace {
const account alice{1, "alice", role::student, "", false, ""};
const account bob{2, "bob", role::student, "", false, ""};
const account teacher{3, "teacher", role::instructor, "", false, ""};

submission of(const std::string& author) {
  submission s;
  s.id = 7;
  s.account = author;
  return s;
}

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

TEST_CASE("a submission is seen by its author and by instructors only", "[access]") {
  struct row {
    const account* viewer;
    std::string author;
    bool sees;
  };
  const row table[] = {{&alice, "alice", true},
                       {&alice, "bob", false},
                       {&bob, "alice", false},
                       {&teacher, "alice", true},
                       {&teacher, "teacher", true}};
  for (const row& r : table) {
    CAPTURE(r.viewer->name, r.author);
    CHECK(can_see(*r.viewer, of(r.author)) == r.sees);
  }
}

TEST_CASE("a student's list holds their own submissions, whatever they ask, and an instructor's what was asked",
          "[access]") {
  CHECK(listed_account(alice, "") == std::optional<std::string>("alice"));
  CHECK(listed_account(alice, "alice") == std::optional<std::string>("alice"));
  CHECK_FALSE(listed_account(alice, "bob"));
  CHECK(listed_account(teacher, "") == std::optional<std::string>(""));
  CHECK(listed_account(teacher, "bob") == std::optional<std::string>("bob"));
}

TEST_CASE("only a student on a contest server gets the contest view", "[access]") {
  CHECK(contest_view_for(alice, true));
  CHECK_FALSE(contest_view_for(teacher, true));
  CHECK_FALSE(contest_view_for(alice, false));
  CHECK_FALSE(contest_view_for(teacher, false));
}

TEST_CASE("the contest view keeps a failed hidden case to its name, shape and verdict", "[access]") {
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

TEST_CASE("the contest view keeps a sample case and an accepted hidden case whole", "[access]") {
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

TEST_CASE("the result shown is the stored contest view or the whole one", "[access]") {
  submission s = of("alice");
  s.result = nlohmann::json{{"whole", true}};
  s.contest_result = nlohmann::json{{"whole", false}};
  CHECK(shown_result(s, true) == s.contest_result);
  CHECK(shown_result(s, false) == s.result);
}
