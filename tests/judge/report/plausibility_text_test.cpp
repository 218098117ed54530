#include "catch.hpp"
#include "judge/report/plausibility_text.hpp"
#include "judge/report/report_json.hpp"
#include "judge/report/report_terminal.hpp"
#include "results_fixtures.hpp"
#include "text_match.hpp"

using namespace judge;
using judge_test::contains;

TEST_CASE("an implausible time is worded with the floor, the work and the ceiling", "[report]") {
  const implausible_time fp32{0.0086, 2.29, speed_ceiling::fp32_peak, 1.37e11, 60000};
  const std::string text = implausible_text(fp32);
  CAPTURE(text);
  CHECK(contains(text, "median 8.6 us is below the physical floor of 2.290 ms"));
  CHECK(contains(text, "1.37e+11 FLOP at the FP32 peak of 60000 GFLOPS"));
  CHECK(contains(text, "not ranked, flagged for the instructor"));
  const implausible_time dram{0.001, 0.031, speed_ceiling::dram_peak, 1.5e8, 4800};
  CHECK(contains(implausible_text(dram), "1.5e+08 bytes beyond what L2 holds, at the DRAM peak of 4800 GB/s"));
  const implausible_time copy{0.001, 0.031, speed_ceiling::measured_bandwidth, 1.5e8, 5000};
  CHECK(contains(implausible_text(copy), "1.25 x the measured copy bandwidth: 5000 GB/s"));
}

TEST_CASE("the terminal report marks an implausible solution as not ranked and says why", "[report]") {
  const solution_result r = judge::testing::implausible_result("mallory", 900000);
  const std::string text = render_solution(r, "cuBLAS", terminal_style{});
  CAPTURE(text);
  CHECK(contains(text, "score 900000.0 GFLOPS (not ranked: implausible)"));
  CHECK(contains(text, "implausible time on square_2048: median"));
  CHECK_FALSE(contains(text, "implausible time on square_1024"));
  CHECK_FALSE(contains(render_solution(judge::testing::accepted_result("alice", 9000), "cuBLAS", terminal_style{}),
                       "implausible"));
}

TEST_CASE("the JSON report carries the flag and the figures of an implausible case", "[report]") {
  const solution_result r = judge::testing::implausible_result("mallory", 900000);
  const nlohmann::json j = to_json(r);
  CHECK(j["implausible"] == true);
  CHECK_FALSE(j["cases"][1].contains("implausible"));
  const nlohmann::json& c = j["cases"][2]["implausible"];
  CHECK(c["ceiling"] == "fp32_peak");
  CHECK(c["peak"] == 60000);
  CHECK(c["median_ms"] == r.cases[2].implausible->median_ms);
  CHECK(c["floor_ms"] == r.cases[2].implausible->floor_ms);
  CHECK(contains(c["text"].get<std::string>(), "below the physical floor"));
  CHECK(to_json(judge::testing::accepted_result("alice", 9000))["implausible"] == false);
}
