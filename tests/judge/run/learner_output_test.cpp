#include "catch.hpp"

#include "judge/run/learner_output.hpp"

using judge::without_runner_lines;

TEST_CASE("the runner's own lines are not the learner's output", "[runner_session]") {
  CHECK(without_runner_lines("sum = 3\nrunner: the request channel closed before an \"end\" request\n") == "sum = 3\n");
  CHECK(without_runner_lines("runner: one\nrunner: two\n").empty());
  CHECK(without_runner_lines("").empty());
}

TEST_CASE("the learner's lines stay whole and in order, the last one without its newline too", "[runner_session]") {
  CHECK(without_runner_lines("a\nrunner: x\nb\nc") == "a\nb\nc");
  // Only a line that starts with the prefix is the runner's: one that mentions it is the learner's.
  CHECK(without_runner_lines("my runner: fast\n  runner: indented\n") == "my runner: fast\n  runner: indented\n");
  CHECK(without_runner_lines("runner:no space\n") == "runner:no space\n");
}
