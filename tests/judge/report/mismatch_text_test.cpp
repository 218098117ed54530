#include "catch.hpp"
#include "text_match.hpp"

#include "judge/report/mismatch_text.hpp"
#include "judge/report/report_json.hpp"
#include "judge/report/report_terminal.hpp"

using namespace judge;
using judge_test::contains;

namespace {
/// C[3][7] of a 8x8 output, 1.5 where the reference is 1.49 and the judge allowed 1.5e-5.
mismatch near_miss(std::int64_t outside_leetgpu) {
  mismatch m;
  m.buffer = "C";
  m.count = 2;
  m.total = 64;
  m.first_index = 31;
  m.first_coords = {3, 7};
  m.expected = 1.49;
  m.got = 1.5f;
  m.allowed = 1.49e-5 + 1e-5;
  m.leetgpu = published_check{0.01, 0.01, outside_leetgpu};
  return m;
}
} // namespace

TEST_CASE("a wrong output within LeetGPU's tolerance says so with the element and both bounds", "[report]") {
  const auto note = leetgpu_note(near_miss(0));
  REQUIRE(note);
  CHECK(*note == "within LeetGPU's tolerance (atol 0.01, rtol 0.01), outside the FP32 bound here: C[3][7] = 1.5 "
                 "expected 1.49 (|diff| 0.01 > 2.49e-05)");
  mismatch exact = near_miss(0);
  exact.exact = true;
  exact.allowed = 0;
  CHECK(contains(*leetgpu_note(exact), "outside the exact comparison here: C[3][7]"));
}

TEST_CASE("no LeetGPU note when LeetGPU rejects the output too or publishes no tolerance", "[report]") {
  CHECK_FALSE(leetgpu_note(near_miss(1)));
  mismatch none = near_miss(0);
  none.leetgpu.reset();
  CHECK_FALSE(leetgpu_note(none));
}

TEST_CASE("an element is named by its coordinates or by its flat index", "[report]") {
  mismatch m = near_miss(0);
  CHECK(element_text(m) == "C[3][7]");
  m.first_coords.clear();
  CHECK(element_text(m) == "C[31]");
}

TEST_CASE("the terminal report and --json add the LeetGPU note under the failing case", "[report]") {
  solution_result r;
  r.path = "solutions/prefix_sum/alice.cu";
  r.v = verdict::wrong_answer;
  r.speed_unit = "GB/s";
  case_result c;
  c.name = "n_1m";
  c.shape = "1000000";
  c.v = verdict::wrong_answer;
  c.message = "checked call 1: 2 of 64 elements of C are wrong";
  c.wrong = near_miss(0);
  r.message = "case n_1m (1000000, hidden): " + c.message;
  r.cases.push_back(c);
  const std::string text = render_solution(r, "CUB", terminal_style{});
  CAPTURE(text);
  CHECK(contains(text, "  ! within LeetGPU's tolerance (atol 0.01, rtol 0.01), outside the FP32 bound here"));
  const nlohmann::json j = to_json(r);
  CHECK(contains(j.at("cases")[0].at("wrong").at("leetgpu_text").get<std::string>(), "within LeetGPU's tolerance"));
  CHECK(j.at("cases")[0].at("wrong").at("leetgpu").at("outside") == 0);
}
