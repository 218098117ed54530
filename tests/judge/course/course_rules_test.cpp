#include "catch.hpp"
#include "judge/course/course_rules.hpp"
#include "text_match.hpp"

#if JUDGE_CATCH_MAJOR >= 3
using Catch::Approx; // Catch2 2.13 declares it globally
#endif

using namespace judge::course;
using judge_test::contains;

namespace {
constexpr std::int64_t day = 86400;

assignment make(const std::string& name, std::vector<std::string> problems, std::int64_t release,
                std::int64_t deadline, late_policy policy = late_policy::refuse) {
  assignment a;
  a.name = name;
  a.problems = std::move(problems);
  a.release = release;
  a.deadline = deadline;
  a.late.policy = policy;
  return a;
}
} // namespace

TEST_CASE("a problem is seen once an assignment holding it is released, and always when none holds it",
          "[course]") {
  course_spec c;
  c.assignments = {make("a1", {"matmul"}, 10 * day, 20 * day), make("a2", {"matmul", "transpose"}, 30 * day, 40 * day)};
  CHECK(problem_released(nullptr, "matmul", 0));
  CHECK(problem_released(&c, "vector_add", 0));
  CHECK_FALSE(problem_released(&c, "matmul", 10 * day - 1));
  CHECK(problem_released(&c, "matmul", 10 * day));
  CHECK_FALSE(problem_released(&c, "transpose", 29 * day));
  CHECK(problem_released(&c, "transpose", 30 * day));
}

TEST_CASE("a student's deadline is their extension, else the assignment's", "[course]") {
  assignment a = make("a1", {"matmul"}, 0, 20 * day);
  a.extensions["alice"] = 22 * day;
  CHECK(deadline_for(a, "alice") == 22 * day);
  CHECK(deadline_for(a, "bob") == 20 * day);
}

TEST_CASE("a submission is free, in time, late, refused or to an unreleased problem", "[course]") {
  course_spec c;
  c.assignments = {make("a1", {"matmul"}, 10 * day, 20 * day), make("late_ok", {"transpose"}, 0, 20 * day,
                                                                    late_policy::accept)};
  c.assignments[0].extensions["alice"] = 22 * day;
  using o = hand_in::outcome;
  struct row {
    std::string problem, who;
    std::int64_t now;
    o expected;
    std::int64_t late;
  };
  for (const row& r : std::vector<row>{
           {"vector_add", "bob", 0, o::free, 0},
           {"matmul", "bob", 5 * day, o::unreleased, 0},
           {"matmul", "bob", 20 * day, o::in_time, 0}, // the deadline itself is in time
           {"matmul", "bob", 20 * day + 1, o::refused, 0},
           {"matmul", "alice", 21 * day, o::in_time, 0},
           {"matmul", "alice", 22 * day + 1, o::refused, 0},
           {"transpose", "bob", 21 * day + 7, o::late, day + 7},
       }) {
    CAPTURE(r.problem, r.who, r.now);
    const hand_in h = judge_hand_in(&c, r.problem, r.who, r.now);
    CHECK(h.what == r.expected);
    CHECK(h.late_seconds == r.late);
    if (r.expected == o::refused) {
      CHECK(contains(h.refusal, "deadline of assignment 'a1'"));
      CHECK(contains(h.refusal, "not queued"));
    }
  }
  CHECK(judge_hand_in(nullptr, "matmul", "bob", 0).what == o::free);
}

TEST_CASE("a problem in two assignments counts for the one where it is in time, else the least late", "[course]") {
  course_spec c;
  c.assignments = {make("early", {"matmul"}, 0, 10 * day, late_policy::accept),
                   make("late", {"matmul"}, 0, 20 * day, late_policy::accept)};
  hand_in h = judge_hand_in(&c, "matmul", "bob", 15 * day);
  CHECK(h.what == hand_in::outcome::in_time);
  CHECK(h.assignment == "late");
  h = judge_hand_in(&c, "matmul", "bob", 21 * day);
  CHECK(h.what == hand_in::outcome::late);
  CHECK(h.assignment == "late");
  CHECK(h.late_seconds == day);
}

TEST_CASE("a late result keeps its score less the penalty per day begun, never below the floor", "[course]") {
  late_rule r{late_policy::accept, 10, 50};
  CHECK(kept_fraction(r, 0) == 1);
  CHECK(kept_fraction(r, 1) == Approx(0.9));
  CHECK(kept_fraction(r, day) == Approx(0.9));
  CHECK(kept_fraction(r, day + 1) == Approx(0.8));
  CHECK(kept_fraction(r, 30 * day) == Approx(0.5));
  CHECK(kept_fraction({late_policy::accept, 0, 0}, 30 * day) == 1);

  assignment a = make("a1", {"matmul"}, 0, 10 * day, late_policy::accept);
  a.late = r;
  a.extensions["alice"] = 12 * day;
  standing s = standing_in(a, "bob", 11 * day);
  CHECK(s.counts);
  CHECK(s.late_seconds == day);
  CHECK(s.kept == Approx(0.9));
  s = standing_in(a, "alice", 11 * day); // the extension, granted afterwards, counts
  CHECK(s.late_seconds == 0);
  CHECK(s.kept == 1);
  a.late = late_rule{};
  s = standing_in(a, "bob", 11 * day);
  CHECK_FALSE(s.counts);
  CHECK(s.kept == 0);
}
