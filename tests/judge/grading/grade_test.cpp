#include "catch.hpp"

#include "judge/grading/device_fit.hpp"
#include "judge/grading/feedback.hpp"
#include "judge/grading/reference_cache.hpp"
#include "judge/grading/timing_figures.hpp"

using namespace judge;

TEST_CASE("a case too large for the device's memory is named with its size, and one that fits is not", "[grade]") {
  const problem_spec spec = load_problem(JUDGE_TEST_DATA_DIR "/spec/problems/matmul_tiny");
  test_case c;
  c.name = "huge";
  c.sizes = {{"M", 100000}, {"N", 100000}, {"K", 100000}}; // three 40 GB buffers
  device_info h200;
  h200.name = "NVIDIA H200";
  h200.memory_bytes = 150'000'000'000;
  h200.l2_bytes = 62'914'560;
  const std::string why = device_memory_shortfall(spec, c, h200);
  CAPTURE(why);
  CHECK(why.find("case huge") != std::string::npos);
  CHECK(why.find("GiB") != std::string::npos);
  CHECK(why.find("NVIDIA H200") != std::string::npos);

  c.sizes = {{"M", 1024}, {"N", 512}, {"K", 1024}};
  CHECK(device_memory_shortfall(spec, c, h200).empty());
  device_info unknown;
  c.sizes = {{"M", 100000}, {"N", 100000}, {"K", 100000}};
  CHECK(device_memory_shortfall(spec, c, unknown).empty());
}

TEST_CASE("CPU references are computed once per case and check, and recomputed past the memory bound", "[grade]") {
  reference_cache cache(3 * sizeof(double));
  int computed = 0;
  const auto compute = [&] {
    ++computed;
    return reference_cache::outputs{{"C", {1.0, 2.0}}};
  };
  CHECK(cache.get(0, 0, compute).at("C")[1] == 2.0);
  cache.get(0, 0, compute);
  CHECK(computed == 1);
  cache.get(0, 1, compute); // past the bound: the cache starts over
  CHECK(computed == 2);
  CHECK(cache.kept_bytes() == 2 * sizeof(double));
  cache.get(0, 0, compute);
  CHECK(computed == 3);
}

TEST_CASE("timing statistics leave out throttled samples unless every one was", "[grade]") {
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

TEST_CASE("host time far above GPU time is pointed out", "[grade]") {
  timing_summary t;
  t.median_ms = 0.2;
  t.host_median_ms = 0.3;
  CHECK(timing_feedback(t).empty());
  t.host_median_ms = 1.5;
  CHECK(timing_feedback(t).find("solve() takes 1.500 ms on the host but only 0.200 ms on the GPU") == 0);
}
