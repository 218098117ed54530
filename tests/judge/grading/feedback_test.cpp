#include "judge/grading/feedback.hpp"

#include "catch.hpp"
#include "text_match.hpp"

using namespace judge;
using judge_test::contains;

namespace {
timing_summary timed_by(const std::string& method) {
  timing_summary t;
  t.median_ms = 1.0;
  t.host_median_ms = 1.01;
  t.method = method;
  return t;
}
} // namespace

TEST_CASE("a solution timed by the baseline's method gets no note on it", "[feedback]") {
  CHECK(method_feedback(timed_by("cupti"), timed_by("cupti")).empty());
  CHECK(method_feedback(timed_by("events"), timed_by("events")).empty());
}

TEST_CASE("a solution timed by another method than the baseline is told so", "[feedback]") {
  const std::string note = method_feedback(timed_by("events"), timed_by("cupti"));
  CAPTURE(note);
  CHECK(contains(note, "timed with events but the baseline with cupti"));
  CHECK(contains(note, "no % of baseline"));
}

TEST_CASE("two notes join with a semicolon, and an empty one adds nothing", "[feedback]") {
  CHECK(join_feedback("a", "b") == "a; b");
  CHECK(join_feedback("", "b") == "b");
  CHECK(join_feedback("a", "") == "a");
  CHECK(join_feedback("", "").empty());
}

TEST_CASE("host time far above GPU time is pointed out", "[feedback]") {
  timing_summary t;
  t.median_ms = 0.2;
  t.host_median_ms = 0.3;
  CHECK(timing_feedback(t).empty());
  t.host_median_ms = 1.5;
  CHECK(timing_feedback(t).find("solve() takes 1.500 ms on the host but only 0.200 ms on the GPU") == 0);
}
