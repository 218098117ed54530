#include "judge/grading/case_data.hpp"

#include "catch.hpp"

#include "common/datagen.h"

using namespace judge;

namespace {

problem_spec vector_add() { return load_problem(JUDGE_PROBLEMS_DIR "/vector_add"); }

test_case n_5() {
  test_case c;
  c.name = "n_5";
  c.sizes = {{"N", 5}};
  c.seed = 77;
  return c;
}

} // namespace

TEST_CASE("a case request carries one check per seed given, with the judge's output file names", "[case_data]") {
  const problem_spec spec = vector_add();
  const auto request = make_case_request(spec, n_5(), 4, {111, 222}, std::nullopt);
  CHECK(request.name == "n_5");
  CHECK(request.case_index == 4);
  REQUIRE(request.checks.size() == 2);
  CHECK(request.checks[0].seed == 111);
  CHECK(request.checks[1].seed == 222);
  CHECK(request.checks[0].poison == judge_wire::poison_kind::nan);
  CHECK(request.checks[1].poison == judge_wire::poison_kind::big);
  CHECK(request.checks[0].output_files == std::vector<std::string>{"4.0.C.bin"});
  CHECK(request.checks[1].output_files == std::vector<std::string>{"4.1.C.bin"});
  CHECK_FALSE(request.timing);
}

TEST_CASE("a timing request has no checks and no seed: the runner draws the samples' own", "[case_data]") {
  judge_wire::timing_spec timing;
  timing.budget_s = 1.5;
  const auto request = make_case_request(vector_add(), n_5(), 0, {}, timing);
  CHECK(request.checks.empty());
  REQUIRE(request.timing);
  CHECK(request.timing->budget_s == 1.5);
}

TEST_CASE("inputs are regenerated from the check's own seed, as the runner generates them", "[case_data]") {
  const problem_spec spec = vector_add();
  const auto inputs = regenerate_inputs(spec, n_5(), 222);
  REQUIRE(inputs.at("A").size() == 5);
  REQUIRE(inputs.at("B").size() == 5);
  // The stream of a buffer is its position among the pointer parameters: A is 0, B is 1.
  CHECK(inputs.at("A")[3] == judge_data::generate(spec.input_distribution, 222, 0, 3));
  CHECK(inputs.at("B")[4] == judge_data::generate(spec.input_distribution, 222, 1, 4));
  CHECK(regenerate_inputs(spec, n_5(), 223).at("A") != inputs.at("A"));
}
