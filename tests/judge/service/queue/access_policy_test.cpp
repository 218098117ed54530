// The access policy alone, without a server: who sees which submission, whose a list holds, who gets the
// contest view (what it keeps of a result: tests/judge/report/contest_view_test.cpp).
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

TEST_CASE("the result shown is the stored contest view or the whole one", "[access]") {
  submission s = of("alice");
  s.result = nlohmann::json{{"whole", true}};
  s.contest_result = nlohmann::json{{"whole", false}};
  CHECK(shown_result(s, true) == s.contest_result);
  CHECK(shown_result(s, false) == s.result);
}

TEST_CASE("a draft problem is seen by instructors only and a published one by everyone", "[access]") {
  CHECK(can_see_draft(alice, false));
  CHECK_FALSE(can_see_draft(alice, true));
  CHECK(can_see_draft(teacher, true));
  CHECK(can_see_draft(teacher, false));
}

TEST_CASE("a problem's dashboard is seen by instructors only", "[access]") {
  CHECK(can_see_dashboard(teacher));
  CHECK_FALSE(can_see_dashboard(alice));
}
