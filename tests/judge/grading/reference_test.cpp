// The problems' CPU references, built and loaded the way the judge does (reference_library.hpp).
#include "catch.hpp"
#include "temp_folder.hpp"
#include "text_match.hpp"

#include "judge/problem/problem.hpp"
#include "judge/grading/reference_build.hpp"
#include "judge/grading/reference_library.hpp"

#include "common/datagen.h"

#include <stdlib.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

using judge_test::contains;

namespace fs = std::filesystem;

namespace {

using buffers_in = std::map<std::string, std::vector<float>>;
using buffers_out = std::map<std::string, std::vector<double>>;

// Runs the shipped CPU reference of `problem` the way the judge does: outputs sized, not zeroed.
buffers_out run_reference(const std::string& problem, const buffers_in& inputs, const judge::size_values& sizes,
                          const std::map<std::string, std::size_t>& output_counts, unsigned threads) {
  const judge::problem_spec spec = judge::load_problem(fs::path(JUDGE_SOURCE_DIR) / "problems" / problem);
  // The judge's own runner cache: CTest runs each test in a process of its own, and the cache is keyed by
  // content, so each shipped reference is compiled once for all of them (and for later runs).
  const judge::cpu_reference reference = judge::load_cpu_reference(spec, judge::default_toolchain());
  buffers_out outputs;
  // A value no reference computes here: an element the reference forgets to write stays visible.
  for (const auto& [name, count] : output_counts) outputs[name].assign(count, -12345.678);
  reference.run(inputs, sizes, outputs, threads);
  return outputs;
}

/// A copy of a shipped problem in a fresh folder, whose reference.cpp a test may edit.
struct problem_copy {
  judge_test::temp_folder folder{"reference-problem"};
  fs::path root = folder.path();
  fs::path dir;
  explicit problem_copy(const std::string& problem) : dir(root / problem) {
    fs::copy(fs::path(JUDGE_SOURCE_DIR) / "problems" / problem, dir, fs::copy_options::recursive);
  }
  judge::problem_spec spec() const { return judge::load_problem(dir); }
  /// A cache of this copy's own, so that edits never reach the shared cache.
  judge::toolchain tools() const {
    judge::toolchain tools = judge::default_toolchain();
    tools.cache_dir = root / "cache";
    return tools;
  }
  /// Replaces the first `from` in reference.cpp by `to`.
  void edit(const std::string& from, const std::string& to) const {
    std::ifstream in(dir / "reference.cpp");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    text.replace(at, from.size(), to);
    std::ofstream(dir / "reference.cpp") << text;
  }
};

/// The message of what `body` throws; empty when it throws nothing.
template <class Body> std::string thrown_message(const Body& body) {
  try {
    body();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

buffers_out run_matmul(const std::vector<float>& a, const std::vector<float>& b, std::int64_t m, std::int64_t n,
                       std::int64_t k, unsigned threads = 1) {
  return run_reference("matmul", {{"A", a}, {"B", b}}, {{"M", m}, {"N", n}, {"K", k}},
                       {{"C", static_cast<std::size_t>(m * k)}}, threads);
}

// Uniform values in [-1, 1) from the judge's own generator: non-integer, so nothing is exact by luck.
std::vector<float> generated(std::int64_t count, std::uint64_t seed, std::uint32_t buffer) {
  std::vector<float> values(static_cast<std::size_t>(count));
  for (std::int64_t i = 0; i < count; ++i)
    values[static_cast<std::size_t>(i)] = judge_data::generate(judge_data::distribution{}, seed, buffer, i);
  return values;
}

} // namespace

TEST_CASE("the matmul reference reproduces the 2x3x2 sample worked by hand", "[reference]") {
  // testcases/matmul/cases.yaml, sample_2x3x2: dyadic values, so the products and sums are exact.
  const std::vector<float> a{1.5f, -0.75f, 2.25f, -1.125f, 0.625f, 3.5f};
  const std::vector<float> b{0.25f, -2.5f, 1.75f, 0.375f, -0.5f, 1.25f};
  const std::vector<double> c = run_matmul(a, b, 2, 3, 2).at("C");
  CHECK(c == std::vector<double>{-2.0625, -1.21875, -0.9375, 7.421875});
}

TEST_CASE("multiplying by an identity matrix returns the other factor", "[reference]") {
  const std::int64_t rows = 6;
  const std::int64_t cols = 5;
  const std::vector<float> x = generated(rows * cols, 7, 0);
  const auto identity = [](std::int64_t size) {
    std::vector<float> id(static_cast<std::size_t>(size * size), 0.0f);
    for (std::int64_t i = 0; i < size; ++i) id[static_cast<std::size_t>(i * size + i)] = 1.0f;
    return id;
  };
  const std::vector<double> expected(x.begin(), x.end());

  SECTION("X · I") { CHECK(run_matmul(x, identity(cols), rows, cols, cols).at("C") == expected); }
  SECTION("I · X") { CHECK(run_matmul(identity(rows), x, rows, rows, cols).at("C") == expected); }
}

TEST_CASE("the matmul reference agrees with a naive triple loop on a random 13x7x5", "[reference]") {
  const std::int64_t m = 13;
  const std::int64_t n = 7;
  const std::int64_t k = 5;
  const std::vector<float> a = generated(m * n, 42, 0);
  const std::vector<float> b = generated(n * k, 42, 1);
  // More threads than fit evenly: 13 rows split into uneven chunks, one thread per chunk.
  const unsigned threads = GENERATE(1u, 3u, 16u);
  CAPTURE(threads);
  const std::vector<double> c = run_matmul(a, b, m, n, k, threads).at("C");

  REQUIRE(c.size() == static_cast<std::size_t>(m * k));
  for (std::int64_t i = 0; i < m; ++i) {
    for (std::int64_t j = 0; j < k; ++j) {
      double expected = 0.0;
      for (std::int64_t p = 0; p < n; ++p)
        expected +=
            static_cast<double>(a[static_cast<std::size_t>(i * n + p)]) * b[static_cast<std::size_t>(p * k + j)];
      CAPTURE(i, j);
      // Double sums of 7 exact products: any order agrees to a few units in the last place of a double.
      CHECK_THAT(c[static_cast<std::size_t>(i * k + j)],
                 Catch::Matchers::WithinRel(expected, 1e-14) || Catch::Matchers::WithinAbs(expected, 1e-15));
    }
  }
}

TEST_CASE("the matmul reference handles an inner dimension of 1 (an outer product)", "[reference]") {
  const std::vector<float> a{0.5f, -1.5f, 2.25f};
  const std::vector<float> b{4.0f, -0.125f};
  CHECK(run_matmul(a, b, 3, 1, 2).at("C") == std::vector<double>{2.0, -0.0625, -6.0, 0.1875, 9.0, -0.28125});
}

TEST_CASE("the vector_add reference adds in double, without float rounding", "[reference]") {
  // 2^24 + 1 is not a float: a float addition would round it to 2^24.
  const std::vector<float> a{16777216.0f, 0.5f, -1.25f, 0.1f};
  const std::vector<float> b{1.0f, 0.25f, 1.25f, 0.2f};
  const unsigned threads = GENERATE(1u, 3u);
  CAPTURE(threads);
  const std::vector<double> c =
      run_reference("vector_add", {{"A", a}, {"B", b}}, {{"N", 4}}, {{"C", 4}}, threads).at("C");
  CHECK(c == std::vector<double>{16777217.0, 0.75, 0.0, static_cast<double>(0.1f) + static_cast<double>(0.2f)});
}

TEST_CASE("the transpose reference swaps rows and columns", "[reference]") {
  const std::vector<float> input{1.5f, -2.0f, 0.25f, 4.0f, -0.125f, 8.0f}; // 2 rows, 3 columns
  const unsigned threads = GENERATE(1u, 2u);
  CAPTURE(threads);
  const std::vector<double> output =
      run_reference("transpose", {{"input", input}}, {{"rows", 2}, {"cols", 3}}, {{"output", 6}}, threads).at("output");
  CHECK(output == std::vector<double>{1.5, 4.0, -2.0, -0.125, 0.25, 8.0});
}

TEST_CASE("an unchanged reference comes from the cache and an edited one is rebuilt", "[reference]") {
  problem_copy copy("vector_add");
  const judge::reference_build first = judge::build_cpu_reference(copy.spec(), copy.tools());
  REQUIRE(first.status == judge::reference_build_status::ok);
  const judge::reference_build again = judge::build_cpu_reference(copy.spec(), copy.tools());
  CHECK(again.cached);
  CHECK(again.library == first.library);

  copy.edit("CPU reference of vector_add", "CPU reference of vector_add, edited");
  const judge::reference_build edited = judge::build_cpu_reference(copy.spec(), copy.tools());
  CHECK(edited.status == judge::reference_build_status::ok);
  CHECK_FALSE(edited.cached);
  CHECK(edited.library != first.library);
}

TEST_CASE("a reference written for another problem is refused, naming both", "[reference]") {
  problem_copy copy("vector_add");
  copy.edit("JUDGE_CPU_REFERENCE(vector_add,", "JUDGE_CPU_REFERENCE(vector_sub,");
  const std::string message = thrown_message([&] { judge::load_cpu_reference(copy.spec(), copy.tools()); });
  CHECK(contains(message, "defines the CPU reference of 'vector_sub', not of 'vector_add'"));
}

TEST_CASE("a reference asking for a buffer the signature lacks fails with the problem's name", "[reference]") {
  problem_copy copy("vector_add");
  copy.edit("args.input(\"B\")", "args.input(\"Q\")");
  const judge::cpu_reference reference = judge::load_cpu_reference(copy.spec(), copy.tools());
  buffers_out outputs{{"C", std::vector<double>(2)}};
  const std::string message = thrown_message([&] {
    reference.run({{"A", {1.0f, 2.0f}}, {"B", {3.0f, 4.0f}}}, {{"N", 2}}, outputs, 1);
  });
  CHECK(contains(message, "the CPU reference of problem vector_add failed"));
  CHECK(contains(message, "input 'Q'"));
}

TEST_CASE("the host compiler follows JUDGE_HOST_CXX", "[reference]") {
  ::setenv("JUDGE_HOST_CXX", "/opt/some/g++", 1);
  const judge::toolchain tools = judge::default_toolchain();
  ::unsetenv("JUDGE_HOST_CXX");
  CHECK(tools.host_cxx == "/opt/some/g++");
  CHECK_FALSE(judge::default_toolchain().host_cxx.empty());
}
