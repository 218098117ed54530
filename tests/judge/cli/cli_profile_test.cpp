#include "catch.hpp"
#include "text_match.hpp"

#include "judge_command.hpp"

using judge_test::contains;
using judge_test::run_judge;

namespace {
const std::filesystem::path source_root = JUDGE_SOURCE_DIR;
}

TEST_CASE("judge profile refuses an unknown case before it looks for a GPU", "[cli][profile]") {
  const auto r = run_judge("profile matmul " +
                           (source_root / "problems/matmul/submissions/accepted/"
                                          "01_naive_row_per_thread_x.cu")
                               .string() +
                           " --case no_such_case");
  CAPTURE(r.output);
  CHECK(r.status == 2);
  CHECK(contains(r.output, "no_such_case"));
}

TEST_CASE("judge profile without a GPU says so and exits 3", "[cli][profile]") {
  if (run_judge("device").status == 0) {
    WARN("a CUDA device is present: this test is about machines without one");
    return;
  }
  const auto r = run_judge(
      "profile matmul " + (source_root / "problems/matmul/submissions/accepted/01_naive_row_per_thread_x.cu").string());
  CAPTURE(r.output);
  CHECK(r.status == 3);
  CHECK(contains(r.output, "no CUDA device to profile on"));
}

TEST_CASE("judge profile-request times the case as the judge does only when asked, with exactly N samples",
          "[cli][profile]") {
  const std::string solution =
      (source_root / "problems/matmul/submissions/accepted/01_naive_row_per_thread_x.cu").string();
  const auto timed = run_judge("profile-request matmul " + solution + " --case ragged_1001x513x777 --timed 7");
  CAPTURE(timed.output);
  REQUIRE(timed.status == 0);
  // The runner's path, the solution's, the case request, "end".
  CHECK(contains(timed.output, "\"name\":\"ragged_1001x513x777\""));
  CHECK(contains(timed.output, "\"min_samples\":7"));
  CHECK(contains(timed.output, "\"max_samples\":7"));
  CHECK(contains(timed.output, "\"cold_l2\":true"));
  CHECK(contains(timed.output, "{\"type\":\"end\"}"));

  const auto checked = run_judge("profile-request matmul " + solution + " --case ragged_1001x513x777");
  CAPTURE(checked.output);
  REQUIRE(checked.status == 0);
  CHECK(contains(checked.output, "\"timing\":null"));

  const auto negative = run_judge("profile-request matmul " + solution + " --case ragged_1001x513x777 --timed -1");
  CHECK(negative.status == 2);
}
