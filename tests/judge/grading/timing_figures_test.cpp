#include "catch.hpp"

#include "judge/grading/timing_figures.hpp"

using namespace judge;

TEST_CASE("timing statistics leave out throttled samples unless every one was", "[timing_figures]") {
  judge_wire::timing_answer t;
  t.gpu_ms = {1.0, 9.0, 3.0};
  t.host_ms = {1.5, 9.5, 3.5};
  t.sm_clock_mhz = {1980, 900, 1980};
  t.throttled = {false, true, false};
  t.method = judge_wire::timing_method::events;
  t.stop_reason = judge_wire::stop_reason::budget;
  auto s = summarise(t);
  REQUIRE(s);
  CHECK(s->samples == 2);
  CHECK(s->discarded == 1);
  CHECK(s->median_ms == 2.0);
  CHECK(s->max_ms == 3.0);
  CHECK(s->sm_clock_mhz == 1980);
  CHECK(s->method == "events");
  CHECK(s->stop_reason == "budget");
  t.throttled = {true, true, true};
  s = summarise(t);
  REQUIRE(s);
  CHECK(s->samples == 3);
  CHECK(s->discarded == 3);
  CHECK_FALSE(summarise(judge_wire::timing_answer{}));
}
