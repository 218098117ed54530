#include "judge/problem/case_tolerance.hpp"

#include "catch.hpp"
#include "spec_test_files.hpp"

#include <cmath>
#include <string>

// Catch2 2.13 has its Approx in Detail (and a Matchers::Approx this file would find first), 3.x in Catch.
#if JUDGE_CATCH_MAJOR >= 3
using Catch::Approx;
#else
using Catch::Detail::Approx;
#endif
using judge::case_tolerance;
using judge::sum_allowance;
using judge_test::temp_folder;

namespace {

const double u = std::ldexp(1.0, -24);

/// problems/sum with the given tolerance block, and its cases.yaml; returns the spec and the cases.
struct sum_problem {
  explicit sum_problem(const std::string& tolerance, const std::string& cases) {
    root.write("problems/sum/statement.md", "# sum\n");
    const auto dir = root.write("problems/sum/problem.yaml", R"(title: Sum
signature:
  - {name: input, type: const float*, shape: [N]}
  - {name: weights, type: const float*, shape: [N]}
  - {name: output, type: float*, shape: [1]}
  - {name: N, type: int}
inputs:
  distribution: {kind: uniform, low: -4.0, high: 2.0}
)" + tolerance)
                         .parent_path();
    spec = judge::load_problem(dir);
    list = judge::load_cases(spec, root.write("testcases/sum/cases.yaml", cases));
  }
  temp_folder root;
  judge::problem_spec spec;
  std::vector<judge::test_case> list;
};

} // namespace

TEST_CASE("a sum of a few terms is allowed one rounding per addition, a long one runs of 64 combined pairwise",
          "[spec][tolerance]") {
  CHECK(sum_allowance(1) == 2 * u);
  CHECK(sum_allowance(2) == 3 * u);
  CHECK(sum_allowance(50) == 51 * u);
  // 2^20 terms: 64 + 20 roundings, not a million.
  CHECK(sum_allowance(1 << 20) == (64 + 20 + 2) * u);
  CHECK(sum_allowance((1 << 20) + 1) == (64 + 21 + 2) * u);
}

TEST_CASE("without a sum rule a case's tolerance is the problem's", "[spec][tolerance]") {
  const sum_problem p("tolerance: {atol: 1.0e-4, rtol: 2.0e-6}\n",
                      "cases:\n  - {name: a, sizes: {N: 1000}, seed: 1}\n");
  const judge::tolerance t = case_tolerance(p.spec, p.list[0]);
  CHECK(t.atol == 1.0e-4);
  CHECK(t.rtol == 2.0e-6);
}

TEST_CASE("an absolute sum rule grows with the number of terms and the largest magnitude of each factor",
          "[spec][tolerance]") {
  const sum_problem p("tolerance:\n  atol: 1.0e-5\n  rtol: 1.0e-5\n  sum: {terms: N, of: [input, weights]}\n",
                      "cases:\n"
                      "  - {name: small, sizes: {N: 10}, seed: 1}\n"
                      "  - {name: big, sizes: {N: 1048576}, seed: 2,\n"
                      "     buffers: {weights: {kind: constant, value: 0.5}}}\n"
                      "  - {name: data, sizes: {N: 2}, seed: 3, data: {input: [3.0, -6.0], weights: [1.0, 0.25]}}\n");
  // uniform [-4, 2): |x| <= 4 for both buffers.
  CHECK(case_tolerance(p.spec, p.list[0]).atol == Approx(1.0e-5 + 11 * u * 10 * 16).epsilon(1e-12));
  CHECK(case_tolerance(p.spec, p.list[1]).atol == Approx(1.0e-5 + 86 * u * 1048576 * 4 * 0.5).epsilon(1e-12));
  // Explicit data bounds by its own largest values: 6 and 1.
  CHECK(case_tolerance(p.spec, p.list[2]).atol == Approx(1.0e-5 + 3 * u * 2 * 6).epsilon(1e-12));
  CHECK(case_tolerance(p.spec, p.list[1]).rtol == 1.0e-5);
}

TEST_CASE("a relative sum rule widens rtol only", "[spec][tolerance]") {
  const sum_problem p("tolerance:\n  sum: {terms: N, relative: true}\n",
                      "cases:\n  - {name: a, sizes: {N: 100}, seed: 1}\n");
  const judge::tolerance t = case_tolerance(p.spec, p.list[0]);
  CHECK(t.atol == 1.0e-5);
  CHECK(t.rtol == Approx(1.0e-5 + (64 + 7 + 2) * u).epsilon(1e-12));
}

TEST_CASE("a weighted sum rule bounds the terms by the values alone, as weights that sum to 1 average them",
          "[spec][tolerance]") {
  const sum_problem p("tolerance:\n  sum: {terms: N, of: [weights], weighted: true}\n",
                      "cases:\n  - {name: a, sizes: {N: 4096}, seed: 1}\n");
  CHECK(case_tolerance(p.spec, p.list[0]).atol == Approx(1.0e-5 + (64 + 12 + 2) * u * 4).epsilon(1e-12));
}

TEST_CASE("a case's own tolerance replaces the problem's and the sum rule still widens it", "[spec][tolerance]") {
  const sum_problem p("tolerance:\n  atol: 1.0e-5\n  rtol: 1.0e-5\n  sum: {terms: N, of: [input]}\n",
                      "cases:\n"
                      "  - {name: loose, sizes: {N: 10}, seed: 1, tolerance: {atol: 0.5}}\n"
                      "  - {name: bare, sizes: {N: 10}, seed: 2, tolerance: {atol: 0.5, rtol: 0, sum: false}}\n"
                      "  - {name: rtol_only, sizes: {N: 10}, seed: 3, tolerance: {rtol: 0.25}}\n");
  // uniform [-4, 2): |x| <= 4; ten terms.
  const judge::tolerance loose = case_tolerance(p.spec, p.list[0]);
  CHECK(loose.atol == Approx(0.5 + 11 * u * 10 * 4).epsilon(1e-12));
  CHECK(loose.rtol == 1.0e-5);
  const judge::tolerance bare = case_tolerance(p.spec, p.list[1]);
  CHECK(bare.atol == 0.5);
  CHECK(bare.rtol == 0);
  CHECK_FALSE(bare.sum);
  CHECK(case_tolerance(p.spec, p.list[2]).rtol == 0.25);
  CHECK_FALSE(loose.exact);
}

TEST_CASE("an exact case has no tolerance at all, sum rule or not", "[spec][tolerance]") {
  const sum_problem p("tolerance:\n  atol: 1.0e-5\n  sum: {terms: N, of: [input]}\n",
                      "cases:\n  - {name: a, sizes: {N: 1000}, seed: 1, compare: exact,\n"
                      "     distribution: {kind: uniform_int, low: -4, high: 4}}\n");
  const judge::tolerance t = case_tolerance(p.spec, p.list[0]);
  CHECK(t.exact);
  CHECK(t.atol == 0);
  CHECK(t.rtol == 0);
  CHECK_FALSE(t.sum);
}
