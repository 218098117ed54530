#include "catch.hpp"
#include "text_match.hpp"

#include "judge/grading/profile_case.hpp"

using judge_test::contains;

namespace {
const std::filesystem::path source_root = JUDGE_SOURCE_DIR;
}

TEST_CASE("judge profile profiles the timed case with the most work unless a case is named", "[profile]") {
  const judge::problem_spec spec = judge::load_problem(source_root / "problems/matmul");
  const auto cases = judge::load_cases(spec, source_root / "testcases/matmul/cases.yaml");
  CHECK(cases[judge::default_profile_case(spec, cases)].name == "leetgpu_rows_256x6144x4096");
  std::vector<judge::test_case> untimed = cases;
  for (judge::test_case& c : untimed) c.timed = false;
  const judge::test_case& largest = untimed[judge::default_profile_case(spec, untimed)];
  for (const judge::test_case& c : untimed) CHECK(spec.flops.evaluate(c.sizes) <= spec.flops.evaluate(largest.sizes));
}

TEST_CASE("judge profile passes over a timed robustness case for the largest case within the limits", "[profile]") {
  const judge::problem_spec spec = judge::load_problem(source_root / "problems/matmul");
  judge::test_case within, beyond;
  within.name = "within";
  within.sizes = {{"M", 64}, {"N", 64}, {"K", 64}};
  beyond.name = "beyond";
  beyond.sizes = {{"M", 8193}, {"N", 8193}, {"K", 8193}};
  beyond.beyond_limits = "past LeetGPU's limit of 8192";
  const std::vector<judge::test_case> cases{beyond, within};
  CHECK(cases[judge::default_profile_case(spec, cases)].name == "within");
}

TEST_CASE("an example names the hints it must get in comment lines", "[profile]") {
  const std::string source = "// Ladder step 1.\n"
                             "// Expected hint: uncoalesced_global\n"
                             "  //   Expected hint:   shared_memory_tiling  \n"
                             "// Expected hint: two words\n"
                             "int x; // Expected hint: not_at_line_start\n";
  CHECK(judge::expected_hints(source) == std::vector<std::string>{"uncoalesced_global", "shared_memory_tiling"});
  CHECK(judge::expected_hints("__global__ void k() {}\n").empty());
}

TEST_CASE("a profile that cannot run leaves the graded result as it was and says why", "[profile]") {
  judge::run_profiler profiler(source_root / "no_such_problems", source_root / "testcases", "matmul",
                               source_root / "no_such_results");
  judge::solution_result r;
  r.v = judge::verdict::accepted;
  r.hints = {{"register_blocking", "lesson", "evidence"}};
  const judge::result_profile p = profiler.profile(source_root / "problems/matmul/starter.cu", r);
  CHECK(p.kernels.empty());
  CHECK(contains(p.note, "the profiler could not run"));
  REQUIRE(r.hints.size() == 1);
  CHECK(r.hints[0].id == "register_blocking");
  CHECK_FALSE(profiler.has_ncu());
}
