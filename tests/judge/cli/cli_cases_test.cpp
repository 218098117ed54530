// `judge cases`: showing a sample case's data and checking a problem's CPU reference, without a GPU.
#include "catch.hpp"
#include "judge/base/file_input.hpp"
#include "judge_command.hpp"
#include "text_match.hpp"

#include <nlohmann/json.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <vector>

namespace fs = std::filesystem;

using judge_test::contains;
using judge_test::run_judge;
using judge_test::scratch_root;

TEST_CASE("cases --show prints a sample case's inputs and the reference's output as matrices", "[cli][cases]") {
  const scratch_root root;
  const auto r = run_judge("cases matmul --show sample_2x3x2", root.environment());
  CAPTURE(r.output);
  CHECK(r.status == 0);
  CHECK(contains(r.output, "case sample_2x3x2 of matmul (sample): M=2 N=3 K=2"));
  CHECK(contains(r.output, "input A [M, N] = 2x3 (explicit data)"));
  CHECK(std::regex_search(r.output, std::regex(R"(row +0: +1\.5 +-0\.75 +2\.25\n)")));
  CHECK(contains(r.output, "expected output C [M, K] = 2x2 (the CPU reference"));
  CHECK(std::regex_search(r.output, std::regex(R"(row +0: +-2\.0625 +-1\.21875\n)")));
  CHECK(std::regex_search(r.output, std::regex(R"(row +1: +-0\.9375 +7\.421875\n)")));
}

TEST_CASE("cases --show cuts a large buffer to its corner and says so", "[cli][cases]") {
  const scratch_root root;
  const auto r = run_judge("cases matmul --show sample_17x9x13", root.environment());
  CAPTURE(r.output);
  CHECK(r.status == 0);
  CHECK(contains(r.output, "(generated from the seed)"));
  CHECK(contains(r.output, "(showing 8 of 17 rows and 8 of 9 columns)"));
  CHECK(contains(r.output, "(showing 8 of 17 rows and 8 of 13 columns)"));
}

TEST_CASE("cases --show --out writes every buffer as raw float32 with a manifest", "[cli][cases]") {
  const scratch_root root;
  const fs::path out = root.dir / "case-data";
  const auto r = run_judge("cases matmul --show sample_2x3x2 --out " + out.string(), root.environment());
  CAPTURE(r.output);
  REQUIRE(r.status == 0);
  const auto manifest = nlohmann::json::parse(judge::read_file(out / "manifest.json"));
  CHECK(manifest["case"] == "sample_2x3x2");
  CHECK(manifest["buffers"].size() == 3);
  std::ifstream in(out / "C.bin", std::ios::binary);
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  REQUIRE(bytes.size() == 4 * sizeof(float));
  std::vector<float> c(4);
  std::memcpy(c.data(), bytes.data(), bytes.size());
  CHECK(c == std::vector<float>{-2.0625f, -1.21875f, -0.9375f, 7.421875f});
  CHECK(fs::file_size(out / "A.bin") == 6 * sizeof(float));
}

TEST_CASE("cases --show --json gives every value of every buffer", "[cli][cases]") {
  const scratch_root root;
  const auto r = run_judge("cases vector_add --show sample_100 --json", root.environment());
  REQUIRE(r.status == 0);
  const auto doc = nlohmann::json::parse(r.output);
  REQUIRE(doc["buffers"].size() == 3);
  CHECK(doc["buffers"][0]["values"].size() == 100);
  CHECK(doc["buffers"][2]["role"] == "expected output");
  const double a = doc["buffers"][0]["values"][42], b = doc["buffers"][1]["values"][42],
               c = doc["buffers"][2]["values"][42];
  CHECK(c == static_cast<double>(a) + static_cast<double>(b));
}

TEST_CASE("cases --show refuses a hidden case, whose data stays with the judge", "[cli][cases]") {
  const auto r = run_judge("cases matmul --show aligned_1024x512x1024");
  CHECK(r.status == 2);
  CHECK(contains(r.output, "aligned_1024x512x1024"));
  CHECK(contains(r.output, "is hidden"));
  CHECK(contains(r.output, "only sample cases"));
  CHECK_FALSE(contains(r.output, "row"));
}

TEST_CASE("cases --show of an unknown case names the problem", "[cli][cases]") {
  const auto r = run_judge("cases matmul --show no_such_case");
  CHECK(r.status == 2);
  CHECK(contains(r.output, "has no case named 'no_such_case'"));
}

TEST_CASE("cases --check runs the CPU reference on the samples and compares the expected values", "[cli][cases]") {
  const scratch_root root;
  for (const char* problem : {"matmul", "vector_add", "transpose"}) {
    CAPTURE(problem);
    const auto r = run_judge(std::string("cases ") + problem + " --check", root.environment());
    CAPTURE(r.output);
    CHECK(r.status == 0);
    CHECK(contains(r.output, "matches the expected values in cases.yaml"));
    CHECK(contains(r.output, "1 with expected values, 0 disagreeing"));
  }
}

TEST_CASE("cases --check fails, naming the element, when an expected value is wrong", "[cli][cases]") {
  const scratch_root root;
  const fs::path cases = root.dir / "testcases/matmul/cases.yaml";
  std::string text = judge::read_file(cases);
  const std::string right = "C: [-2.0625, -1.21875, -0.9375, 7.421875]";
  REQUIRE(contains(text, right));
  text.replace(text.find(right), right.size(), "C: [-2.0625, -1.21875, -0.9375, 7.5]");
  root.write("testcases/matmul/cases.yaml", text);
  const auto r = run_judge("cases matmul --check", root.environment());
  CAPTURE(r.output);
  CHECK(r.status == 1);
  CHECK(contains(r.output, "WRONG: C[1][1]: the CPU reference gives 7.421875, cases.yaml expects 7.5"));
}

TEST_CASE("cases --check runs the CPU reference on every hidden case and says how long each took", "[cli][cases]") {
  const scratch_root root;
  const auto r = run_judge("cases vector_add --check", root.environment());
  CAPTURE(r.output);
  CHECK(r.status == 0);
  CHECK(contains(r.output, "the problem folder has every file it needs"));
  CHECK(contains(r.output, "the CPU reference on the hidden cases (a dry run, no GPU"));
  CHECK(contains(r.output, " with a problem, "));
  CHECK(contains(r.output, "0 with a problem"));
}

TEST_CASE("cases --check names a hidden case whose CPU reference writes a non-finite value", "[cli][cases]") {
  const scratch_root root;
  // A reference with a bug only large cases reach: a sum past the last element.
  root.write("problems/vector_add/reference.cpp",
             "#include \"cpu_reference.h\"\n"
             "#include <cmath>\n"
             "#include <cstdint>\n"
             "JUDGE_CPU_REFERENCE(vector_add, args) {\n"
             "  const float* a = args.input(\"A\").data();\n"
             "  const float* b = args.input(\"B\").data();\n"
             "  double* c = args.output(\"C\").data();\n"
             "  const std::int64_t n = args.size(\"N\");\n"
             "  for (std::int64_t i = 0; i < n; ++i) c[i] = n > 5000 && i == n - 1 ? NAN : double(a[i]) + b[i];\n"
             "}\n");
  const auto r = run_judge("cases vector_add --check --budget 600", root.environment());
  CAPTURE(r.output);
  CHECK(r.status == 1);
  CHECK(contains(r.output, "NON-FINITE: C["));
}

TEST_CASE("cases --check names a GPU reference without its extern C entry point", "[cli][cases]") {
  const scratch_root root;
  root.write("problems/vector_add/reference_gpu.cu",
             "void judge_reference_solve(void* const* buffers, const int* sizes, const float* scalars) {}\n");
  const auto r = run_judge("cases vector_add --check", root.environment());
  CAPTURE(r.output);
  CHECK(r.status == 1);
  CHECK(contains(r.output, "reference_gpu.cu: judge_reference_solve must be declared extern \"C\""));
  CHECK(contains(r.output, "the problem folder is incomplete"));
}
