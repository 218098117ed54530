#include "judge/problem/cases.hpp"

#include "judge/base/usage_error.hpp"

#include "cases_fixture.hpp"
#include "catch.hpp"
#include "spec_test_files.hpp"

#include <string>
#include <vector>

using judge::load_cases;
using judge::spec_error;
using judge::test_case;
using spec_test::message_of;

namespace {

using fixture = spec_test::cases_fixture;

bool same(const judge_data::distribution& d, judge_data::distribution_kind kind, double a, double b) {
  return d.kind == kind && d.a == a && d.b == b;
}

} // namespace

TEST_CASE("a case with every field set is read as written", "[cases]") {
  const fixture f;
  const auto cases = f.load(R"(cases:
  - name: sample_2x3x2
    visibility: sample
    sizes: {M: 2, N: 3, K: 2}
    seed: 18446744073709551615
    timed: false
    data:
      A: [1.5, -2.25, 0.5, 3.0]
    distribution:
      kind: normal
      mean: 0.5
      stddev: 2.0
    buffers:
      B: {kind: uniform, low: -1000.0, high: 1000.0}
)");
  REQUIRE(cases.size() == 1);
  const test_case& c = cases[0];
  CHECK(c.name == "sample_2x3x2");
  CHECK(c.visibility == judge::visibility::sample);
  CHECK(c.sizes == judge::size_values{{"M", 2}, {"N", 3}, {"K", 2}});
  CHECK(c.seed == 18446744073709551615ull);
  CHECK_FALSE(c.timed);
  CHECK(c.line == 2);
  REQUIRE(c.data.count("A") == 1);
  CHECK(c.data.at("A") == std::vector<float>{1.5f, -2.25f, 0.5f, 3.0f});
  CHECK(c.data.count("B") == 0);
  REQUIRE(c.distributions.size() == 2);
  CHECK(same(c.distributions.at("A"), judge_data::distribution_kind::normal, 0.5, 2.0));
  CHECK(same(c.distributions.at("B"), judge_data::distribution_kind::uniform, -1000.0, 1000.0));
}

TEST_CASE("omitted case fields take their defaults", "[cases]") {
  const fixture f;
  SECTION("timed defaults to true") {
    const auto cases = f.load("cases:\n  - {name: a, sizes: {M: 1, N: 1, K: 1}, seed: 7}\n");
    REQUIRE(cases.size() == 1);
    CHECK(cases[0].visibility == judge::visibility::hidden);
    CHECK(cases[0].timed);
    CHECK(cases[0].data.empty());
    // Every input gets the problem's distribution; outputs get none.
    REQUIRE(cases[0].distributions.size() == 2);
    CHECK(same(cases[0].distributions.at("A"), judge_data::distribution_kind::uniform, -2.0, 2.0));
    CHECK(same(cases[0].distributions.at("B"), judge_data::distribution_kind::uniform, -2.0, 2.0));
  }
  SECTION("defaults.timed changes the default, and a case may still say otherwise") {
    const auto cases = f.load(R"(defaults: {timed: false}
cases:
  - {name: a, sizes: {M: 1, N: 1, K: 1}, seed: 7}
  - {name: b, sizes: {M: 1, N: 1, K: 1}, seed: 8, timed: true}
)");
    REQUIRE(cases.size() == 2);
    CHECK_FALSE(cases[0].timed);
    CHECK(cases[1].timed);
    CHECK(cases[0].line == 3);
    CHECK(cases[1].line == 4);
  }
}

TEST_CASE("the example cases.yaml in tests/data is read", "[cases]") {
  const auto spec = judge::load_problem(JUDGE_TEST_DATA_DIR "/spec/problems/matmul_tiny");
  const auto cases = load_cases(spec, JUDGE_TEST_DATA_DIR "/spec/testcases/matmul_tiny/cases.yaml");
  REQUIRE(cases.size() == 2);
  CHECK(cases[0].visibility == judge::visibility::sample);
  CHECK_FALSE(cases[0].timed);
  CHECK(same(cases[0].distributions.at("A"), judge_data::distribution_kind::normal, 0.0, 0.5));
  CHECK(same(cases[0].distributions.at("B"), judge_data::distribution_kind::uniform, -1000.0, 1000.0));
  CHECK(cases[1].seed == 42);
  CHECK(cases[1].timed);
  CHECK(same(cases[1].distributions.at("A"), judge_data::distribution_kind::cancel, 0.5, 2.0));
  CHECK(judge::shape_text(spec, cases[1]) == "1001x513x777");
}

TEST_CASE("index_of_case finds a case by name, and names the problem when there is none", "[cases]") {
  const auto spec = judge::load_problem(JUDGE_TEST_DATA_DIR "/spec/problems/matmul_tiny");
  const auto cases = load_cases(spec, JUDGE_TEST_DATA_DIR "/spec/testcases/matmul_tiny/cases.yaml");
  REQUIRE(cases.size() == 2);
  CHECK(judge::index_of_case(spec, cases, cases[1].name) == 1);
  const std::string why = message_of<judge::usage_error>([&] { judge::index_of_case(spec, cases, "no_such_case"); });
  CHECK(why.find("no_such_case") != std::string::npos);
  CHECK(why.find("judge cases " + spec.name) != std::string::npos);
}

TEST_CASE("buffer_counts multiplies each buffer's extents", "[cases]") {
  const fixture f(R"(title: Halo
signature:
  - {name: X, type: const float*, shape: [N + 2, 3*S]}
  - {name: Y, type: float*, shape: [N - 2]}
  - {name: N, type: int}
  - {name: S, type: int}
)",
                  "halo");
  const auto cases = f.load("cases:\n  - {name: a, sizes: {N: 10, S: 4}, seed: 1}\n");
  const auto counts = judge::buffer_counts(f.spec(), cases[0]);
  CHECK(counts == std::map<std::string, std::int64_t>{{"X", 12 * 12}, {"Y", 8}});

  SECTION("an extent below 1 is an error") {
    const std::string message = f.error("cases:\n  - {name: tiny, sizes: {N: 2, S: 1}, seed: 1}\n");
    CHECK(message ==
          "testcases/halo/cases.yaml:2: case tiny: buffer Y has the extent N - 2 = 0; every extent must be at least 1");
  }
}

TEST_CASE("shape_text joins the sizes in signature order", "[cases]") {
  const fixture f;
  const auto cases = f.load("cases:\n  - {name: a, sizes: {K: 777, N: 513, M: 1001}, seed: 1}\n");
  CHECK(judge::shape_text(f.spec(), cases[0]) == "1001x513x777");
}

TEST_CASE("a buffer of 2^40 bytes or more is refused, one just below is not", "[cases]") {
  const fixture f;
  // C holds M*N floats: 2^19 * (2^19 - 1) * 4 bytes is just below 2^40, 2^20 * 2^20 * 4 well above.
  CHECK_NOTHROW(f.load("cases:\n  - {name: near, sizes: {M: 524288, N: 524287, K: 1}, seed: 1}\n"));
  CHECK(f.error("cases:\n  - {name: big, sizes: {M: 1048576, N: 1048576, K: 1}, seed: 1}\n") ==
        "testcases/matmul/cases.yaml:2: case big: buffer C would need 4398046511104 bytes (the limit is "
        "1099511627776 bytes; use smaller sizes)");
  CHECK(f.error("cases:\n  - {name: huge, sizes: {M: 2147483647, N: 2147483647, K: 1}, seed: 1}\n") ==
        "testcases/matmul/cases.yaml:2: case huge: buffer C would need more than 9223372036854775807 bytes");
}

TEST_CASE("a wrong case value is reported with the file, the line, the case and the field", "[cases]") {
  const fixture f;
  CHECK(f.error(R"(cases:
  - name: ok
    sizes: {M: 1, N: 1, K: 1}
    seed: 1
  - name: big
    sizes:
      M: 0
      N: 1
      K: 1
    seed: 2
)") == "testcases/matmul/cases.yaml:7: case big: field 'sizes.M': must be from 1 to 2147483647 (it reaches solve() "
       "as an int), got 0");
}

TEST_CASE("an invalid cases.yaml is rejected with a message saying what is wrong", "[cases]") {
  struct row {
    std::string yaml;
    std::string expected;
  };
  const std::string sizes = "sizes: {M: 2, N: 3, K: 2}, seed: 1";
  const row r = GENERATE_COPY(
      row{"cases:\n  - {name: a b, " + sizes + "}\n",
          "cases.yaml:2: field 'cases[0].name': \"a b\" may use only the letters A-Z a-z 0-9 _ . -"},
      row{"cases:\n  - {name: x, " + sizes + "}\n  - {name: y, " + sizes + "}\n  - {name: x, " + sizes + "}\n",
          "cases.yaml:4: field 'cases[2].name': 'x' is already the name of the case on line 2"},
      row{"cases:\n  - {" + sizes + "}\n", "cases.yaml:2: field 'cases[0].name' is required"},
      row{"cases:\n  - {name: x, sizes: {M: 2, N: 3}, seed: 1}\n",
          "case x: field 'sizes.K' is required (every size parameter needs a value: M, N, K)"},
      row{"cases:\n  - {name: x, sizes: {M: 2, N: 3, K: 2, Q: 1}, seed: 1}\n",
          "case x: unknown field 'sizes.Q' (allowed in 'sizes': M, N, K)"},
      row{"cases:\n  - {name: x, sizes: {M: 2147483648, N: 3, K: 2}, seed: 1}\n",
          "case x: field 'sizes.M': must be from 1 to 2147483647 (it reaches solve() as an int), got 2147483648"},
      row{"cases:\n  - {name: x, sizes: {M: -1, N: 3, K: 2}, seed: 1}\n", "field 'sizes.M': must be from 1 to"},
      row{"cases:\n  - {name: x, sizes: {M: 1.5, N: 3, K: 2}, seed: 1}\n",
          "case x: field 'sizes.M': expected an integer, got \"1.5\""},
      row{"cases:\n  - {name: x, sizes: 4, seed: 1}\n",
          "case x: field 'sizes': expected a mapping with the fields M, N, K"},
      row{"cases:\n  - {name: x, seed: 1}\n", "case x: field 'sizes' is required"},
      row{"cases:\n  - {name: x, sizes: {M: 2, N: 3, K: 2}}\n", "case x: field 'seed' is required"},
      row{"cases:\n  - {name: x, sizes: {M: 2, N: 3, K: 2}, seed: -1}\n",
          "case x: field 'seed': expected an integer from 0 to 18446744073709551615, got \"-1\""},
      row{"cases:\n  - {name: x, sizes: {M: 2, N: 3, K: 2}, seed: 18446744073709551616}\n",
          "field 'seed': expected an integer from 0 to 18446744073709551615"},
      row{"cases:\n  - {name: x, " + sizes + ", visibility: public}\n",
          "case x: field 'visibility': unknown visibility \"public\" (known: sample, hidden)"},
      row{"cases:\n  - {name: x, " + sizes + ", timed: sometimes}\n",
          "case x: field 'timed': expected true or false, got \"sometimes\""},
      row{"cases:\n  - {name: x, " + sizes + ", seeds: 2}\n",
          "cases.yaml:2: unknown field 'cases[0].seeds'; did you mean 'cases[0].seed'?"},
      row{"cases:\n  - {name: x, " + sizes + ", data: {A: [1, 2, 3]}}\n",
          "case x: field 'data.A': has 3 values, but buffer A has 4 elements (shape [M, K] = 2x2)"},
      row{"cases:\n  - {name: x, " + sizes + ", data: {A: [1, 2, x, 4]}}\n",
          "case x: field 'data.A[2]': expected a number, got \"x\""},
      row{"cases:\n  - {name: x, " + sizes + ", data: {A: [1, 2, 1e39, 4]}}\n",
          "case x: field 'data.A[2]': 1e39 does not fit in a float"},
      row{"cases:\n  - {name: x, " + sizes + ", data: {A: 1}}\n",
          "case x: field 'data.A': expected a list of numbers, got \"1\""},
      row{"cases:\n  - {name: x, " + sizes + ", data: {C: [1, 2, 3, 4, 5, 6]}}\n",
          "case x: field 'data.C': C is an output buffer; only input and inout buffers (A, B) take explicit data"},
      row{"cases:\n  - {name: x, " + sizes + ", data: {M: [1]}}\n",
          "case x: field 'data.M': M is a size parameter; only input and inout buffers (A, B) take explicit data"},
      row{"cases:\n  - {name: x, " + sizes + ", data: {Z: [1]}}\n",
          "case x: unknown field 'data.Z' (allowed in 'data': A, B)"},
      row{"cases:\n  - {name: x, " + sizes + ", buffers: {C: {kind: constant, value: 1}}}\n",
          "case x: field 'buffers.C': C is an output buffer; only input and inout buffers (A, B) take a distribution"},
      row{"cases:\n  - {name: x, " + sizes + ", buffers: {B: {kind: uniform, low: 1}}}\n",
          "case x: field 'buffers.B.high' is required (for kind uniform)"},
      row{"cases:\n  - {name: x, " + sizes + ", data: {A: [1, 2, 3, 4]}, buffers: {A: {kind: constant, value: 1}}}\n",
          "case x: field 'buffers.A': buffer A has explicit data, which this distribution would not change"},
      row{"cases:\n  - {name: x, " + sizes +
              ", data: {A: [1, 2, 3, 4], B: [1, 2, 3, 4, 5, 6]}, expected: {C: [1, 2, 3]}}\n",
          "case x: field 'expected.C': has 3 values, but buffer C has 6 elements (shape [M, N] = 2x3)"},
      row{"cases:\n  - {name: x, " + sizes + ", data: {A: [1, 2, 3, 4]}, expected: {C: [1, 2, 3, 4, 5, 6]}}\n",
          "case x: field 'expected': expected outputs need explicit data for every input buffer; B has none"},
      row{"cases:\n  - {name: x, " + sizes +
              ", data: {A: [1, 2, 3, 4], B: [1, 2, 3, 4, 5, 6]}, expected: {A: [1, 2, 3, 4]}}\n",
          "case x: field 'expected.A': A is an input buffer; only output and inout buffers (C) have expected values"},
      row{"cases:\n  - {name: x, " + sizes +
              ", data: {A: [1, 2, 3, 4], B: [1, 2, 3, 4, 5, 6]}, expected: {C: [1, 2, y, 4, 5, 6]}}\n",
          "case x: field 'expected.C[2]': expected a number, got \"y\""},
      row{"cases:\n  - {name: x, " + sizes + ", data: {A: [1, 2, 3, 4], B: [1, 2, 3, 4, 5, 6]}, expected: {D: [1]}}\n",
          "case x: unknown field 'expected.D' (allowed in 'expected': C)"},
      row{"cases:\n  - {name: x, " + sizes + ", distribution: {kind: laplace}}\n",
          "case x: field 'distribution.kind': unknown distribution \"laplace\""},
      row{"cases:\n  - {name: x, " + sizes + ", distribution: {kind: normal, mean: 0, stddev: -1}}\n",
          "case x: field 'distribution.stddev': must be above 0, got -1"},
      row{"defaults: {time: false}\ncases:\n  - {name: x, " + sizes + "}\n",
          "cases.yaml:1: unknown field 'defaults.time'; did you mean 'defaults.timed'?"},
      row{"cases: []\n", "cases.yaml:1: field 'cases': expected a non-empty list of cases, got a list"},
      row{"case:\n  - {name: x, " + sizes + "}\n",
          "unknown field 'case'; did you mean 'cases'? (allowed: defaults, cases)"},
      row{"defaults: {timed: true}\n", "field 'cases' is required (the list of test cases)"},
      row{"cases:\n  - {name: x, " + sizes + "\n", ": not valid YAML: "});
  const fixture f;
  const std::string message = f.error(r.yaml);
  CAPTURE(r.yaml);
  CAPTURE(message);
  CHECK(message.rfind("testcases/matmul/cases.yaml", 0) == 0);
  CHECK(message.find(r.expected) != std::string::npos);
}

TEST_CASE("expected outputs of a case with explicit data are read as written", "[cases]") {
  const fixture f;
  const auto cases = f.load(R"(cases:
  - name: worked
    visibility: sample
    sizes: {M: 1, N: 2, K: 1}
    seed: 1
    data: {A: [2], B: [0.5, -1.25]}
    expected: {C: [1.0, -2.5]}
  - name: plain
    sizes: {M: 1, N: 2, K: 1}
    seed: 2
)");
  REQUIRE(cases.size() == 2);
  REQUIRE(cases[0].expected.count("C") == 1);
  CHECK(cases[0].expected.at("C") == std::vector<double>{1.0, -2.5});
  CHECK(cases[1].expected.empty());
}

TEST_CASE("a missing cases.yaml is an error naming the file", "[cases]") {
  const fixture f;
  const std::string message =
      message_of<spec_error>([&] { load_cases(f.spec(), "/nonexistent/testcases/matmul/cases.yaml"); });
  CHECK(message == "testcases/matmul/cases.yaml does not exist: problem 'matmul' needs its test cases there "
                   "(docs/problem-format.md describes the file)");
}

TEST_CASE("a case's own tolerance, exact comparison and limits are read as written", "[cases]") {
  const fixture f;
  const auto cases = f.load(R"(cases:
  - name: loose
    sizes: {M: 1, N: 1, K: 1}
    seed: 1
    tolerance: {atol: 0.01}
  - name: bare
    sizes: {M: 1, N: 1, K: 1}
    seed: 2
    tolerance: {rtol: 0, sum: false}
  - name: exact
    sizes: {M: 2, N: 2, K: 2}
    seed: 3
    compare: exact
    distribution: {kind: uniform_int, low: -8, high: 8}
  - name: n_2pow31
    sizes: {M: 1, N: 1, K: 1}
    seed: 4
    beyond_limits: "M past LeetGPU's limit of 8192"
  - {name: plain, sizes: {M: 1, N: 1, K: 1}, seed: 5}
)");
  REQUIRE(cases.size() == 5);
  REQUIRE(cases[0].tolerance);
  CHECK(cases[0].tolerance->atol == 0.01);
  CHECK_FALSE(cases[0].tolerance->rtol);
  CHECK(cases[0].tolerance->sum);
  REQUIRE(cases[1].tolerance);
  CHECK(cases[1].tolerance->rtol == 0.0);
  CHECK_FALSE(cases[1].tolerance->sum);
  CHECK(cases[2].compare == judge::comparison::exact);
  CHECK(cases[3].beyond_limits == "M past LeetGPU's limit of 8192");
  CHECK(cases[3].robustness());
  CHECK_FALSE(cases[4].tolerance);
  CHECK(cases[4].compare == judge::comparison::tolerance);
  CHECK_FALSE(cases[4].robustness());
}

TEST_CASE("a wrong tolerance, comparison or limit names the case, field and line", "[cases]") {
  struct row {
    std::string fields;
    std::string expected;
  };
  const row r =
      GENERATE(row{"tolerance: {}", "field 'tolerance': give atol, rtol or both (and sum: false to leave out"},
               row{"tolerance: {atol: -1}", "field 'tolerance.atol': must be a finite number >= 0, got -1"},
               row{"tolerance: {rtol: .inf}", "field 'tolerance.rtol': must be a finite number >= 0"},
               row{"tolerance: {atol: 1, sum: maybe}", "field 'tolerance.sum': expected true or false"},
               row{"tolerance: {atol: 1, btol: 2}", "unknown field 'tolerance.btol'; did you mean 'tolerance.atol'?"},
               row{"compare: bitwise", "field 'compare': unknown comparison \"bitwise\" (known: tolerance, exact)"},
               row{"compare: exact, tolerance: {atol: 1}, distribution: {kind: constant, value: 1}",
                   "field 'tolerance': the case says 'compare: exact', which allows no tolerance: keep one of the two"},
               row{"beyond_limits: \"\"", "field 'beyond_limits': expected text"});
  const fixture f;
  const std::string message = f.error("cases:\n  - {name: x, sizes: {M: 1, N: 1, K: 1}, seed: 1, " + r.fields + "}\n");
  CAPTURE(r.fields, message);
  CHECK(message.rfind("testcases/matmul/cases.yaml:2: case x: ", 0) == 0);
  CHECK(message.find(r.expected) != std::string::npos);
}
