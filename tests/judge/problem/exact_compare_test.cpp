#include "judge/problem/exact_compare.hpp"

#include "cases_fixture.hpp"
#include "catch.hpp"
#include "text_match.hpp"

#include <string>

using judge_test::contains;
using spec_test::cases_fixture;

namespace {

const std::string reduction_yaml = R"(title: Reduction
signature:
  - {name: input, type: const float*, shape: [N]}
  - {name: output, type: float*, shape: [1]}
  - {name: N, type: int}
tolerance:
  sum: {terms: N, of: [input]}
)";

/// The message of a reduction case with these fields, or "(nothing was thrown)".
std::string reduction_error(const std::string& fields) {
  const cases_fixture f(reduction_yaml, "reduction");
  return f.error("cases:\n  - {name: big, seed: 1, " + fields + "}\n");
}

} // namespace

TEST_CASE("whole-number inputs with partial sums below 2^24 may be compared exactly", "[cases][exact]") {
  const std::string fields = GENERATE(
      as<std::string>{}, "sizes: {N: 1000000}, compare: exact, distribution: {kind: uniform_int, low: -16, high: 16}",
      "sizes: {N: 16777215}, compare: exact, distribution: {kind: alternating, low: 1, high: 1}",
      "sizes: {N: 2000}, compare: exact, distribution: {kind: ramp, start: -3, step: 2}",
      "sizes: {N: 1000}, compare: exact, distribution: {kind: spike, low: 0, high: 0, value: 1, at: last}",
      "sizes: {N: 3}, compare: exact, data: {input: [1, -2, 3]}");
  const cases_fixture f(reduction_yaml, "reduction");
  CAPTURE(fields);
  const auto cases = f.load("cases:\n  - {name: x, seed: 1, " + fields + "}\n");
  REQUIRE(cases.size() == 1);
  CHECK(judge::why_not_exact(f.spec(), cases[0]).empty());
}

TEST_CASE("an exact comparison of fractional inputs is refused with the case, line and buffer", "[cases][exact]") {
  struct row {
    std::string fields;
    std::string expected;
  };
  const row r = GENERATE(
      row{"sizes: {N: 8}, compare: exact",
          "buffer input is filled from the uniform distribution, which gives fractions (use uniform_int, constant, "
          "ramp with whole start and step, alternating or spike with whole values, or whole-number data)"},
      row{"sizes: {N: 8}, compare: exact, distribution: {kind: alternating, low: 1, high: 2}",
          "buffer input is filled from the alternating distribution, which gives fractions"},
      row{"sizes: {N: 8}, compare: exact, distribution: {kind: ramp, start: 0, step: 0.5}",
          "filled from the ramp distribution"},
      row{"sizes: {N: 3}, compare: exact, data: {input: [1, 2.5, 3]}",
          "its explicit data input[1] = 2.5 is not a whole number"});
  const std::string message = reduction_error(r.fields);
  CAPTURE(message);
  CHECK(message.rfind("testcases/reduction/cases.yaml:2: case big: field 'compare': an exact comparison needs "
                      "whole-number inputs, but ",
                      0) == 0);
  CHECK(contains(message, r.expected));
}

TEST_CASE("an exact comparison whose sums can reach 2^24 is refused with the bound", "[cases][exact]") {
  const std::string message =
      reduction_error("sizes: {N: 1048576}, compare: exact, distribution: {kind: uniform_int, low: -16, high: 16}");
  CAPTURE(message);
  CHECK(contains(message, "testcases/reduction/cases.yaml:2: case big: field 'compare': an exact comparison needs "
                          "every partial sum below 2^24 = 16777216, where float sums of whole numbers are exact, but "
                          "N terms · max|input| = 1048576 · 16 = 16777216 can reach it"));
}

TEST_CASE("without a sum rule only whole inputs are asked of an exact comparison", "[cases][exact]") {
  const cases_fixture f; // matmul without tolerance.sum: the author answers for the sums
  const auto cases = f.load("cases:\n  - {name: x, sizes: {M: 4096, N: 4096, K: 4096}, seed: 1, compare: exact, "
                            "distribution: {kind: constant, value: 1000}}\n");
  CHECK(judge::why_not_exact(f.spec(), cases.at(0)).empty());
}
