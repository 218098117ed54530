// The distributions a case or problem.yaml can name (spec_yaml.cpp's reader::distribution), read through
// cases.yaml as an instructor writes them.
#include "cases_fixture.hpp"
#include "catch.hpp"

#include <string>

using spec_test::cases_fixture;

namespace {
/// The distribution of input A in a one-case file whose case gives `buffers: {A: <dist>}`.
judge_data::distribution read_a(const std::string& dist, const std::string& sizes = "{M: 4, N: 4, K: 4}") {
  const cases_fixture f;
  const auto cases = f.load("cases:\n  - {name: x, sizes: " + sizes + ", seed: 1, buffers: {A: " + dist + "}}\n");
  return cases.at(0).distributions.at("A");
}
} // namespace

TEST_CASE("a spike is read with its background, value and place", "[cases][distribution]") {
  using judge_data::distribution_kind;
  const auto at = read_a("{kind: spike, low: -5, high: 5, value: 30, at: 7}");
  CHECK(at.kind == distribution_kind::spike);
  CHECK(at.a == -5);
  CHECK(at.b == 5);
  CHECK(at.more[0] == 30);
  CHECK(at.more[1] == 7);
  CHECK(read_a("{kind: spike, low: 0, high: 0, value: 1, at: last}").more[1] == judge_data::spike_at_last);
  // Without a place, one drawn from the seed.
  CHECK(read_a("{kind: spike, low: 0, high: 1, value: 9}").more[1] == judge_data::spike_at_random);
}

TEST_CASE("alternating and special distributions are read with their parameters and defaults",
          "[cases][distribution]") {
  using judge_data::distribution_kind;
  const auto alternating = read_a("{kind: alternating, low: 1, high: 1}");
  CHECK(alternating.kind == distribution_kind::alternating);
  CHECK(alternating.a == 1);
  CHECK(alternating.b == 1);
  const auto special = read_a("{kind: special, low: -100, high: 100, denormals: 0.25, infinities: 0.125}");
  CHECK(special.kind == distribution_kind::special);
  CHECK(special.a == -100);
  CHECK(special.b == 100);
  CHECK(special.more[0] == 0.05); // zeros: the default
  CHECK(special.more[1] == 0.25);
  CHECK(special.more[2] == 0.05); // large: the default
  CHECK(special.more[3] == 0.125);
  CHECK(read_a("{kind: special, low: 0, high: 1}").more[3] == 0); // no infinity unless asked
}

TEST_CASE("a wrong spike, alternating or special distribution names the case, field and line",
          "[cases][distribution]") {
  struct row {
    std::string dist;
    std::string expected;
  };
  const row r = GENERATE(
      row{"{kind: spike, low: 1, high: 0, value: 9}",
          "field 'buffers.A': low must not be above high (low = high: every other element is low), got low 1 and "
          "high 0"},
      row{"{kind: spike, low: 0, high: 1, value: 9, at: 2.5}",
          "field 'buffers.A.at': must be an element's index (a whole number from 0) or 'last'"},
      row{"{kind: spike, low: 0, high: 1, value: 9, at: first}", "field 'buffers.A.at': expected a number"},
      row{"{kind: spike, low: 0, high: 1, value: 9, at: 16}",
          "field 'buffers.A.at': buffer A has 16 elements, so the spike's index 16 is past its end (use 'at: last' "
          "for the last element)"},
      row{"{kind: spike, low: 0, high: 1}", "field 'buffers.A.value' is required (for kind spike)"},
      row{"{kind: spike, low: 0, high: 1, value: 1e39}",
          "field 'buffers.A.value': must be a finite number that a float can hold, got 1e39"},
      row{"{kind: alternating, low: -1, high: 1}",
          "field 'buffers.A': low and high are magnitudes: 0 <= low <= high (low = high: one magnitude)"},
      row{"{kind: alternating, low: 2, high: 1}", "field 'buffers.A': low and high are magnitudes"},
      row{"{kind: special, low: 1, high: 1}", "field 'buffers.A': low must be below high, got low 1 and high 1"},
      row{"{kind: special, low: 0, high: 1, zeros: 1.5}",
          "field 'buffers.A.zeros': is a probability, from 0 to 1, got 1.5"},
      row{"{kind: special, low: 0, high: 1, zeros: 0.5, denormals: 0.5, large: 0.25}",
          "field 'buffers.A': the probabilities of zeros, denormals, large and infinities add up to 1.25"},
      row{"{kind: special, low: 0, high: 1, nans: 0.5}",
          "unknown field 'buffers.A.nans' (allowed in 'buffers.A' for kind special: kind, low, high, zeros, "
          "denormals, large, infinities)"});
  const cases_fixture f;
  const std::string message =
      f.error("cases:\n  - {name: x, sizes: {M: 4, N: 4, K: 4}, seed: 1, buffers: {A: " + r.dist + "}}\n");
  CAPTURE(r.dist, message);
  CHECK(message.rfind("testcases/matmul/cases.yaml:2: case x: ", 0) == 0);
  CHECK(message.find(r.expected) != std::string::npos);
}

TEST_CASE("the new distributions fill float buffers only", "[cases][distribution]") {
  const std::string histogram_yaml = R"(title: Histogram
signature:
  - {name: input, type: const int*, shape: [N]}
  - {name: counts, type: int*, shape: [B]}
  - {name: N, type: int}
  - {name: B, type: int}
inputs:
  buffers:
    input: {kind: uniform_int, low: 0, high: 3}
)";
  const cases_fixture f(histogram_yaml, "histogram");
  const std::string kind = GENERATE(as<std::string>{}, "{kind: spike, low: 0, high: 0, value: 1}",
                                    "{kind: alternating, low: 1, high: 1}", "{kind: special, low: 0, high: 1}");
  const std::string message =
      f.error("cases:\n  - {name: x, sizes: {N: 4, B: 4}, seed: 1, buffers: {input: " + kind + "}}\n");
  CAPTURE(message);
  CHECK(message.find("int buffer input cannot take the") != std::string::npos);
}
