#include "catch.hpp"
#include "judge/course/course_file.hpp"
#include "judge/course/course_time.hpp"
#include "judge/problem/problem.hpp"
#include "temp_folder.hpp"
#include "text_match.hpp"

#include <fstream>

using namespace judge;
using namespace judge::course;
using judge_test::contains;
using judge_test::temp_folder;

namespace {
const std::vector<std::string> problems = {"matmul", "vector_add", "transpose"};

std::filesystem::path write_course(const temp_folder& dir, const std::string& text) {
  const auto file = dir.path() / "course.yaml";
  std::ofstream(file) << text;
  return file;
}

const char* good = R"(course: GPU programming
students:
  alice: Alice Liddell
assignments:
  - name: a1
    title: First kernels
    problems: [vector_add, transpose]
    release: 2026-09-01T09:00Z
    deadline: 2026-09-15T23:59Z
    late: {policy: accept, penalty_per_day: 10, floor: 50}
    extensions:
      alice: 2026-09-18T23:59:59Z
    board: {public: true, names: pseudonym}
  - name: a2
    problems: [matmul]
    deadline: 2026-10-01T12:00
)";
} // namespace

TEST_CASE("a course file gives its assignments, rules, extensions and boards", "[course]") {
  temp_folder dir;
  const course_spec c = load_course(write_course(dir, good), problems);
  CHECK(c.title == "GPU programming");
  CHECK(c.full_name("alice") == "Alice Liddell");
  CHECK(c.full_name("bob") == "bob");
  REQUIRE(c.assignments.size() == 2);
  const assignment& a1 = c.assignments[0];
  CHECK(a1.name == "a1");
  CHECK(a1.title == "First kernels");
  CHECK(a1.problems == std::vector<std::string>{"vector_add", "transpose"});
  CHECK(a1.release == *parse_utc("2026-09-01T09:00:00Z"));
  CHECK(a1.deadline == *parse_utc("2026-09-15T23:59:00Z"));
  CHECK(a1.late.policy == late_policy::accept);
  CHECK(a1.late.penalty_per_day == 10);
  CHECK(a1.late.floor == 50);
  CHECK(a1.extensions.at("alice") == *parse_utc("2026-09-18T23:59:59Z"));
  CHECK(a1.board.is_public);
  CHECK(a1.board.names == board_names::pseudonym);
  CHECK(a1.line == 5);
  const assignment& a2 = c.assignments[1];
  CHECK(a2.release == 0); // released from the start
  CHECK(a2.late.policy == late_policy::refuse);
  CHECK_FALSE(a2.board.is_public);
  CHECK(c.holding("matmul").size() == 1);
  CHECK(c.holding("matmul")[0]->name == "a2");
  CHECK(c.holding("reduce").empty());
  CHECK(c.find("a3") == nullptr);
}

TEST_CASE("each mistake in a course file is one message naming the file, the line and the field", "[course]") {
  // (the file, what the message must say); every file is `good` with one mistake.
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"assignments: []\n", {"course.yaml:1:", "field 'assignments'", "non-empty list"}},
      {"course: x\n", {"course.yaml:1:", "field 'assignments' is required"}},
      {"assignment: []\n", {"course.yaml:1:", "unknown field 'assignment'", "did you mean 'assignments'"}},
      {"assignments:\n  - name: a1\n    problems: [matmull]\n    deadline: 2026-09-15T23:59Z\n",
       {"course.yaml:3:", "assignment 'a1'", "field 'problems[0]'", "no problem called 'matmull'", "matmul"}},
      {"assignments:\n  - name: a1\n    problems: [matmul]\n    deadline: 2026-09-15\n",
       {"course.yaml:4:", "assignment 'a1'", "field 'deadline'", "give the hour too"}},
      {"assignments:\n  - name: a1\n    problems: [matmul]\n    deadline: 2026-02-30T10:00Z\n",
       {"course.yaml:4:", "field 'deadline'", "expected a time"}},
      {"assignments:\n  - name: a1\n    problems: [matmul]\n",
       {"course.yaml:2:", "assignment 'a1'", "field 'deadline' is required"}},
      {"assignments:\n  - name: a1\n    problems: [matmul]\n    release: 2026-09-16T00:00Z\n    deadline: "
       "2026-09-15T23:59Z\n",
       {"course.yaml:5:", "field 'deadline'", "not after the release"}},
      {"assignments:\n  - name: a1\n    problems: [matmul]\n    deadline: 2026-09-15T23:59Z\n    late: {policy: "
       "later}\n",
       {"course.yaml:5:", "field 'late.policy'", "unknown late policy \"later\"", "refuse, accept"}},
      {"assignments:\n  - name: a1\n    problems: [matmul]\n    deadline: 2026-09-15T23:59Z\n    late:\n      "
       "penalty_per_day: 10\n",
       {"course.yaml:6:", "field 'late.penalty_per_day'", "policy: accept"}},
      {"assignments:\n  - name: a1\n    problems: [matmul]\n    deadline: 2026-09-15T23:59Z\n    late: {policy: "
       "accept, floor: 150}\n",
       {"course.yaml:5:", "field 'late.floor'", "from 0 to 100"}},
      {"assignments:\n  - name: a1\n    problems: [matmul]\n    deadline: 2026-09-15T23:59Z\n    extensions:\n      "
       "alice: 2026-09-10T00:00Z\n",
       {"course.yaml:6:", "field 'extensions.alice'", "not after the assignment's deadline"}},
      {"assignments:\n  - name: a1\n    problems: [matmul]\n    deadline: 2026-09-15T23:59Z\n    board: {names: "
       "initials}\n",
       {"course.yaml:5:", "field 'board.names'", "pseudonym, name"}},
      {"assignments:\n  - name: a1\n    problems: [matmul]\n    deadline: 2026-09-15T23:59Z\n  - name: a1\n    "
       "problems: [vector_add]\n    deadline: 2026-09-15T23:59Z\n",
       {"course.yaml:5:", "field 'assignments[1].name'", "already the name of the assignment on line 2"}},
      {"assignments:\n  - name: ../a1\n    problems: [matmul]\n    deadline: 2026-09-15T23:59Z\n",
       {"course.yaml:2:", "field 'assignments[0].name'", "cannot name an assignment"}},
      {"assignments:\n  - name: a1\n    problems: [matmul, matmul]\n    deadline: 2026-09-15T23:59Z\n",
       {"course.yaml:3:", "field 'problems[1]'", "listed twice"}},
      {"assignments:\n  - name: a1\n    problems: [matmul\n", {"course.yaml:", "not valid YAML"}},
  };
  for (const auto& [text, expected] : cases) {
    CAPTURE(text);
    temp_folder dir;
    try {
      load_course(write_course(dir, text), problems);
      FAIL("no error for this course file");
    } catch (const spec_error& e) {
      CAPTURE(e.what());
      for (const std::string& part : expected) CHECK(contains(e.what(), part));
      CHECK(std::string(e.what()).find('\n') == std::string::npos); // one line
    }
  }
}

TEST_CASE("course times are UTC with the hour and a bare or impossible date is refused", "[course]") {
  CHECK(parse_utc("1970-01-01T00:00:00Z") == 0);
  CHECK(parse_utc("1970-01-02T00:00Z") == 86400);
  CHECK(parse_utc("1970-01-02 00:00:01") == 86401);
  CHECK(parse_utc("2024-02-29T12:00Z").has_value());
  CHECK_FALSE(parse_utc("2025-02-29T12:00Z"));
  CHECK_FALSE(parse_utc("2026-09-15"));
  CHECK_FALSE(parse_utc("2026-09-15T24:00Z"));
  CHECK_FALSE(parse_utc("tomorrow"));
  CHECK(days_late(0) == 0);
  CHECK(days_late(1) == 1);
  CHECK(days_late(86400) == 1);
  CHECK(days_late(86401) == 2);
  CHECK(late_text(97200) == "1 day 3 h");
  CHECK(late_text(2 * 86400) == "2 days");
  CHECK(late_text(125) == "2 min");
}
