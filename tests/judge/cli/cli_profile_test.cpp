#include "catch.hpp"
#include "text_match.hpp"

#include "judge/cli/cli_profile_case.hpp"
#include "judge_command.hpp"

using judge_test::contains;
using judge_test::run_judge;

namespace {
const std::filesystem::path source_root = JUDGE_SOURCE_DIR;
}

TEST_CASE("judge profile profiles the timed case with the most work unless a case is named", "[cli][profile]") {
  const judge::problem_spec spec = judge::load_problem(source_root / "problems/matmul");
  const auto cases = judge::load_cases(spec, source_root / "testcases/matmul/cases.yaml");
  CHECK(cases[judge::cli::default_profile_case(spec, cases)].name == "leetgpu_rows_256x6144x4096");
  std::vector<judge::test_case> untimed = cases;
  for (judge::test_case& c : untimed) c.timed = false;
  const judge::test_case& largest = untimed[judge::cli::default_profile_case(spec, untimed)];
  for (const judge::test_case& c : untimed) CHECK(spec.flops.evaluate(c.sizes) <= spec.flops.evaluate(largest.sizes));
}

TEST_CASE("judge profile passes over a timed robustness case for the largest case within the limits",
          "[cli][profile]") {
  const judge::problem_spec spec = judge::load_problem(source_root / "problems/matmul");
  judge::test_case within, beyond;
  within.name = "within";
  within.sizes = {{"M", 64}, {"N", 64}, {"K", 64}};
  beyond.name = "beyond";
  beyond.sizes = {{"M", 8193}, {"N", 8193}, {"K", 8193}};
  beyond.beyond_limits = "past LeetGPU's limit of 8192";
  const std::vector<judge::test_case> cases{beyond, within};
  CHECK(cases[judge::cli::default_profile_case(spec, cases)].name == "within");
}

TEST_CASE("an example names the hints it must get in comment lines", "[cli][profile]") {
  const std::string source = "// Ladder step 1.\n"
                             "// Expected hint: uncoalesced_global\n"
                             "  //   Expected hint:   shared_memory_tiling  \n"
                             "// Expected hint: two words\n"
                             "int x; // Expected hint: not_at_line_start\n";
  CHECK(judge::cli::expected_hints(source) == std::vector<std::string>{"uncoalesced_global", "shared_memory_tiling"});
  CHECK(judge::cli::expected_hints("__global__ void k() {}\n").empty());
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

TEST_CASE("a profile that cannot run leaves the graded result as it was and says why", "[cli][profile]") {
  judge::cli::run_profiler profiler(source_root / "no_such_problems", source_root / "testcases", "matmul",
                                    source_root / "no_such_results");
  judge::solution_result r;
  r.v = judge::verdict::accepted;
  r.hints = {{"register_blocking", "lesson", "evidence"}};
  const judge::cli::result_profile p = profiler.profile(source_root / "problems/matmul/starter.cu", r);
  CHECK(p.kernels.empty());
  CHECK(contains(p.note, "the profiler could not run"));
  REQUIRE(r.hints.size() == 1);
  CHECK(r.hints[0].id == "register_blocking");
  CHECK_FALSE(profiler.has_ncu());
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
