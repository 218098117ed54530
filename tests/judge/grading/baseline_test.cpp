// When the baseline's outputs are kept to compare solutions with: only where they are not exactly the
// CPU reference's values, since comparing with those would repeat the first comparison.
#include "catch.hpp"

#include "common/datagen.h"
#include "judge/grading/baseline.hpp"
#include "judge/problem/problem.hpp"

#include <cmath>

using namespace judge;

namespace {

problem_spec spec_of(const std::string& problem) {
  return load_problem(std::string(JUDGE_PROBLEMS_DIR) + "/" + problem);
}

} // namespace

TEST_CASE("a baseline output the same as the CPU reference, value for value, is not kept", "[baseline]") {
  const problem_spec transpose = spec_of("transpose");
  const double_outputs reference{{"output", {1.5, -0.25, 0.0, 3.0}}};
  CHECK(same_as_reference(transpose, {{"output", {1.5f, -0.25f, -0.0f, 3.0f}}}, reference)); // -0 is 0
  // One element off by its last bit, a rounding, a NaN, a missing element: kept.
  CHECK_FALSE(same_as_reference(transpose, {{"output", {1.5f, -0.25f, 0.0f, std::nextafter(3.0f, 4.0f)}}}, reference));
  CHECK_FALSE(
      same_as_reference(transpose, {{"output", {1.5f, -0.25f, 0.0f, 3.0f}}}, {{"output", {1.5, -0.25, 0.0, 0.1}}}));
  CHECK_FALSE(same_as_reference(transpose, {{"output", {1.5f, -0.25f, std::nanf(""), 3.0f}}},
                                {{"output", {1.5, -0.25, std::nan(""), 3.0}}}));
  CHECK_FALSE(same_as_reference(transpose, {{"output", {1.5f, -0.25f, 0.0f}}}, reference));
  CHECK_FALSE(same_as_reference(transpose, {{"elsewhere", {1.5f, -0.25f, 0.0f, 3.0f}}}, reference));
}

TEST_CASE("an int32 baseline output is the same when it holds the same ints", "[baseline]") {
  const problem_spec histogram = spec_of("histogram");
  const parameter* counts = nullptr;
  for (const parameter* p : histogram.buffers())
    if (p->is_result()) counts = p;
  REQUIRE(counts != nullptr);
  REQUIRE(counts->type == judge_data::element_type::int32);
  const std::vector<float> words{judge_data::word_of_int(7), judge_data::word_of_int(0), judge_data::word_of_int(-3)};
  CHECK(same_as_reference(histogram, {{counts->name, words}}, {{counts->name, {7, 0, -3}}}));
  CHECK_FALSE(same_as_reference(histogram, {{counts->name, words}}, {{counts->name, {7, 0, -2}}}));
}
