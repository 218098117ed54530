// The parts of problem.yaml and cases.yaml beyond float buffers and int sizes: int buffers, inout
// buffers, outputs that start zeroed, float parameters, integer distributions and the sum rule.
#include "judge/problem/problem.hpp"
#include "judge/problem/cases.hpp"

#include "catch.hpp"
#include "spec_test_files.hpp"
#include "text_match.hpp"

#include <string>

using judge::param_role;
using judge_data::element_type;
using judge_test::contains;
using judge_test::temp_folder;
using spec_test::message_of;

namespace {

const std::string histogram_yaml = R"(title: Histogram
signature:
  - {name: input, type: const int*, role: input, shape: [N]}
  - {name: histogram, type: int*, role: output, shape: [num_bins], initial: zero}
  - {name: N, type: int, role: size}
  - {name: num_bins, type: int, role: size}
inputs:
  buffers:
    input: {kind: uniform_int, low: 0, high: 7}
)";

const std::string norm_yaml = R"(title: Norm
signature:
  - {name: input, type: const float*, role: input, shape: [N]}
  - {name: gamma, type: float, role: scalar, default: 1.0}
  - {name: output, type: float*, role: output, shape: [N]}
  - {name: N, type: int, role: size}
  - {name: eps, type: float, default: 1.0e-5}
)";

const std::string sort_yaml = R"(title: Sort
signature:
  - {name: data, type: float*, role: inout, shape: [N]}
  - {name: N, type: int, role: size}
)";

struct problem {
  explicit problem(const std::string& yaml, const std::string& name = "p") : m_name(name) {
    m_root.write("problems/" + name + "/statement.md", "# p\n");
    m_dir = m_root.write("problems/" + name + "/problem.yaml", yaml).parent_path();
  }
  judge::problem_spec spec() const { return judge::load_problem(m_dir); }
  std::string spec_error() const {
    return message_of<judge::spec_error>([&] { judge::load_problem(m_dir); });
  }
  std::vector<judge::test_case> cases(const std::string& yaml) const {
    return judge::load_cases(spec(), m_root.write("testcases/" + m_name + "/cases.yaml", yaml));
  }
  std::string cases_error(const std::string& yaml) const {
    return message_of<judge::spec_error>([&] { cases(yaml); });
  }

private:
  temp_folder m_root;
  std::string m_name;
  std::filesystem::path m_dir;
};

} // namespace

TEST_CASE("int buffers, a zeroed output and a buffer's own distribution are read as written", "[spec]") {
  const judge::problem_spec spec = problem(histogram_yaml).spec();
  REQUIRE(spec.signature.size() == 4);
  CHECK(spec.signature[0].type == element_type::int32);
  CHECK(spec.signature[0].role == param_role::input);
  CHECK(spec.signature[1].type == element_type::int32);
  CHECK(spec.signature[1].start == judge_wire::output_start::zero);
  CHECK(spec.buffer_distributions.at("input").kind == judge_data::distribution_kind::uniform_int);
  CHECK(spec.solve_declaration() == "extern \"C\" void solve(const int* input, int* histogram, int N, int num_bins)");
}

TEST_CASE("float parameters take their place in the signature and their defaults", "[spec]") {
  const judge::problem_spec spec = problem(norm_yaml).spec();
  CHECK(spec.signature[1].role == param_role::scalar);
  CHECK(spec.signature[4].role == param_role::scalar); // the role follows from `float`
  CHECK(spec.scalar_names() == std::vector<std::string>{"gamma", "eps"});
  CHECK(spec.buffers().size() == 2);
  CHECK(spec.solve_declaration() ==
        "extern \"C\" void solve(const float* input, float gamma, float* output, int N, float eps)");
}

TEST_CASE("an inout buffer is generated and compared, so it alone makes a problem", "[spec]") {
  const judge::problem_spec spec = problem(sort_yaml).spec();
  CHECK(spec.signature[0].role == param_role::inout);
  CHECK(spec.signature[0].is_generated());
  CHECK(spec.signature[0].is_result());
  CHECK(spec.solve_declaration() == "extern \"C\" void solve(float* data, int N)");
}

TEST_CASE("a typed signature that cannot work is rejected with a message saying what is wrong", "[spec]") {
  const auto [what, yaml, expected] = GENERATE(table<std::string, std::string, std::string>({
      {"inout on a const pointer",
       "title: t\nsignature:\n  - {name: A, type: const int*, role: inout, shape: [N]}\n"
       "  - {name: B, type: int*, shape: [N]}\n  - {name: N, type: int}\n",
       "'inout' does not agree with type 'const int*', which makes it an input"},
      {"a zeroed input",
       "title: t\nsignature:\n  - {name: A, type: const float*, shape: [N], initial: zero}\n"
       "  - {name: B, type: float*, shape: [N]}\n  - {name: N, type: int}\n",
       "only an output buffer has an initial content; A is an input"},
      {"an unknown initial content",
       "title: t\nsignature:\n  - {name: B, type: float*, shape: [N], initial: ones}\n  - {name: N, type: int}\n",
       "unknown initial content \"ones\" (known: poison, zero)"},
      {"a default on a buffer",
       "title: t\nsignature:\n  - {name: B, type: float*, shape: [N], default: 1}\n  - {name: N, type: int}\n",
       "only a scalar (type float) has a default value; B is an output"},
      {"a scalar with a shape",
       "title: t\nsignature:\n  - {name: B, type: float*, shape: [N]}\n  - {name: N, type: int}\n"
       "  - {name: eps, type: float, shape: [N]}\n",
       "a scalar parameter has no shape; only buffers do"},
      {"an int buffer left to a float distribution",
       "title: t\nsignature:\n  - {name: A, type: const int*, shape: [N]}\n  - {name: B, type: int*, shape: [N]}\n"
       "  - {name: N, type: int}\n",
       "int buffer A would be filled from the uniform distribution, which gives fractions"},
      {"uniform_int with a fraction",
       "title: t\nsignature:\n  - {name: A, type: const int*, shape: [N]}\n  - {name: B, type: int*, shape: [N]}\n"
       "  - {name: N, type: int}\ninputs:\n  buffers:\n    A: {kind: uniform_int, low: 0, high: 2.5}\n",
       "field 'inputs.buffers.A.high': must be a whole number an int32 holds, got 2.5"},
      {"a sum rule over an output",
       "title: t\nsignature:\n  - {name: A, type: const float*, shape: [N]}\n  - {name: B, type: float*, shape: [N]}\n"
       "  - {name: N, type: int}\ntolerance:\n  sum: {terms: N, of: [B]}\n",
       "'B' is not an input buffer (inputs: A)"},
      {"a sum rule that says neither of nor relative",
       "title: t\nsignature:\n  - {name: A, type: const float*, shape: [N]}\n  - {name: B, type: float*, shape: [N]}\n"
       "  - {name: N, type: int}\ntolerance:\n  sum: {terms: N}\n",
       "field 'tolerance.sum': needs 'of'"},
      {"a weighted sum rule without the values it weights",
       "title: t\nsignature:\n  - {name: A, type: const float*, shape: [N]}\n  - {name: B, type: float*, shape: [N]}\n"
       "  - {name: N, type: int}\ntolerance:\n  sum: {terms: N, relative: true, weighted: true}\n",
       "field 'tolerance.sum.weighted': needs 'of'"},
      {"a sum rule over an unknown size",
       "title: t\nsignature:\n  - {name: A, type: const float*, shape: [N]}\n  - {name: B, type: float*, shape: [N]}\n"
       "  - {name: N, type: int}\ntolerance:\n  sum: {terms: K, relative: true}\n",
       "field 'tolerance.sum.terms': 'K' uses 'K', which is not a size parameter"},
  }));
  CAPTURE(what);
  CHECK(contains(problem(yaml).spec_error(), expected));
}

TEST_CASE("a case's int data and expected ints are whole numbers, held as the ints' bits", "[spec]") {
  const problem p(histogram_yaml);
  const auto cases =
      p.cases("cases:\n  - name: s\n    visibility: sample\n    sizes: {N: 3, num_bins: 2}\n"
              "    seed: 1\n    data: {input: [1, 0, -2147483648]}\n    expected: {histogram: [1, 1]}\n");
  REQUIRE(cases.size() == 1);
  CHECK(judge_data::int_of_word(cases[0].data.at("input")[2]) == INT32_MIN);
  CHECK(cases[0].expected.at("histogram") == std::vector<double>{1, 1});
}

TEST_CASE("a case's scalars override the defaults and every scalar needs a value", "[spec]") {
  const problem p(norm_yaml);
  const auto cases = p.cases("cases:\n  - {name: a, sizes: {N: 4}, seed: 1, scalars: {eps: 0.5}}\n"
                             "  - {name: b, sizes: {N: 4}, seed: 2}\n");
  CHECK(cases[0].scalars.at("eps") == 0.5);
  CHECK(cases[0].scalars.at("gamma") == 1.0);
  CHECK(cases[1].scalars.at("eps") == 1.0e-5);

  const problem no_default("title: t\nsignature:\n  - {name: B, type: float*, shape: [N]}\n  - {name: N, type: int}\n"
                           "  - {name: beta, type: float}\n");
  CHECK(contains(no_default.cases_error("cases:\n  - {name: a, sizes: {N: 4}, seed: 1}\n"),
                 "scalar parameter beta has no value"));
  CHECK(contains(p.cases_error("cases:\n  - {name: a, sizes: {N: 4}, seed: 1, scalars: {N: 2}}\n"), "scalars"));
  CHECK(contains(p.cases_error("cases:\n  - {name: a, sizes: {N: 4}, seed: 1, scalars: {eps: .inf}}\n"),
                 "must be a finite number that a float can hold"));
}

TEST_CASE("a case cannot give an int buffer fractions or a float distribution", "[spec]") {
  const problem p(histogram_yaml);
  const auto [what, yaml, expected] = GENERATE(table<std::string, std::string, std::string>({
      {"a fraction in int data",
       "cases:\n  - {name: a, sizes: {N: 2, num_bins: 2}, seed: 1, data: {input: [0, 1.5]}}\n",
       "input is an int buffer: 1.5 is not a whole number an int32 holds"},
      {"an int beyond int32",
       "cases:\n  - {name: a, sizes: {N: 1, num_bins: 2}, seed: 1, data: {input: [4294967296]}}\n",
       "is not a whole number an int32 holds"},
      {"a float distribution for the case",
       "cases:\n  - {name: a, sizes: {N: 2, num_bins: 2}, seed: 1, distribution: {kind: normal, mean: 0, stddev: 1}}\n",
       "int buffer input cannot take the normal distribution"},
      {"a float distribution for the buffer",
       "cases:\n  - {name: a, sizes: {N: 2, num_bins: 2}, seed: 1, buffers: {input: {kind: uniform, low: 0, high: "
       "1}}}\n",
       "field 'buffers.input': int buffer input cannot take the uniform distribution"},
  }));
  CAPTURE(what);
  CHECK(contains(p.cases_error(yaml), expected));
}

TEST_CASE("an inout buffer takes explicit data and has expected values", "[spec]") {
  const problem p(sort_yaml);
  const auto cases = p.cases("cases:\n  - name: s\n    visibility: sample\n    sizes: {N: 3}\n    seed: 1\n"
                             "    data: {data: [3, 1, 2]}\n    expected: {data: [1, 2, 3]}\n");
  CHECK(cases[0].data.at("data") == std::vector<float>{3, 1, 2});
  CHECK(cases[0].expected.at("data") == std::vector<double>{1, 2, 3});
  CHECK(cases[0].distributions.count("data") == 1);
}
