#include "judge/problem/problem.hpp"

#include "catch.hpp"
#include "spec_test_files.hpp"

#include <string>
#include <vector>

using judge::load_problem;
using judge::param_role;
using judge::problem_spec;
using judge::spec_error;
using judge_test::temp_folder;
using spec_test::message_of;

namespace {

const std::string matmul_signature = R"(signature:
  - {name: A, type: const float*, role: input, shape: [M, K]}
  - {name: B, type: const float*, role: input, shape: [K, N]}
  - {name: C, type: float*, role: output, shape: [M, N]}
  - {name: M, type: int, role: size}
  - {name: N, type: int, role: size}
  - {name: K, type: int, role: size}
)";

/// Writes problems/<name>/problem.yaml (and a statement.md) under `root`; returns the problem folder.
std::filesystem::path write_problem(const temp_folder& root, const std::string& name, const std::string& yaml) {
  root.write("problems/" + name + "/statement.md", "# " + name + "\n");
  return root.write("problems/" + name + "/problem.yaml", yaml).parent_path();
}

std::string load_error(const std::string& yaml) {
  const temp_folder root;
  const auto dir = write_problem(root, "matmul", yaml);
  return message_of<spec_error>([&] { load_problem(dir); });
}

} // namespace

TEST_CASE("a problem.yaml with every field set is read as written", "[spec]") {
  const problem_spec spec = load_problem(JUDGE_TEST_DATA_DIR "/spec/problems/matmul_tiny");
  const std::filesystem::path dir = std::filesystem::path(JUDGE_TEST_DATA_DIR) / "spec/problems/matmul_tiny";
  CHECK(spec.name == "matmul_tiny");
  CHECK(spec.dir == dir.lexically_normal());
  CHECK(spec.spec_file == dir / "problem.yaml");
  CHECK(spec.title == "Tiny matrix multiply");
  CHECK(spec.statement == dir / "statement.md");
  REQUIRE(spec.signature.size() == 6);
  CHECK(spec.signature[0].name == "A");
  CHECK(spec.signature[0].c_type == "const float*");
  CHECK(spec.signature[0].role == param_role::input);
  REQUIRE(spec.signature[0].shape.size() == 2);
  CHECK(spec.signature[0].shape[0].text() == "M");
  CHECK(spec.signature[0].shape[1].text() == "K");
  CHECK(spec.signature[2].role == param_role::output);
  CHECK(spec.signature[5].role == param_role::size);
  CHECK(spec.signature[5].shape.empty());
  CHECK(spec.tolerance.atol == 1.0e-4);
  CHECK(spec.tolerance.rtol == 2.0e-4);
  const judge::size_values sizes{{"M", 2}, {"N", 3}, {"K", 4}};
  CHECK(spec.flops.evaluate(sizes) == 2 * 2 * 3 * 4);
  CHECK(spec.bytes.evaluate(sizes) == 4 * (2 * 4 + 4 * 3 + 2 * 3));
  CHECK(spec.unit == judge::speed_unit::gflops);
  CHECK(spec.input_distribution.kind == judge_data::distribution_kind::normal);
  CHECK(spec.input_distribution.a == 0.0);
  CHECK(spec.input_distribution.b == 0.5);
  CHECK(spec.baseline.source == dir / "baseline.cu");
  CHECK(spec.baseline.label == "cuBLAS");
  CHECK(spec.baseline.libraries == std::vector<std::string>{"cublas"});
  CHECK(spec.baseline.is_reference);
  CHECK(spec.banned_libraries == std::vector<std::string>{"cublas", "cublasLt"});
  CHECK(spec.limits.compile_seconds == 90);
  CHECK(spec.limits.case_seconds == 5);
  CHECK(spec.limits.timing_budget_seconds == 2.5);
  CHECK(spec.limits.output_bytes == 4096);
}

TEST_CASE("omitted fields take the defaults docs/problem-format.md gives", "[spec]") {
  const temp_folder root;
  const auto dir = write_problem(root, "matmul", "title: Matmul\n" + matmul_signature);
  const problem_spec spec = load_problem(dir);
  CHECK(spec.statement == dir / "statement.md");
  CHECK(spec.tolerance.atol == 1.0e-5);
  CHECK(spec.tolerance.rtol == 1.0e-5);
  CHECK(spec.flops.evaluate({}) == 0);
  CHECK(spec.bytes.evaluate({}) == 0);
  CHECK(spec.unit == judge::speed_unit::gflops);
  CHECK(spec.input_distribution.kind == judge_data::distribution_kind::uniform);
  CHECK(spec.input_distribution.a == -1.0);
  CHECK(spec.input_distribution.b == 1.0);
  CHECK(spec.baseline.source.empty());
  CHECK(spec.baseline.label == "baseline");
  CHECK(spec.baseline.libraries.empty());
  CHECK_FALSE(spec.baseline.is_reference);
  CHECK(spec.banned_libraries.empty());
  CHECK_FALSE(spec.tensor_cores_allowed);
  CHECK(spec.limits.compile_seconds == 60);
  CHECK(spec.limits.case_seconds == 10);
  CHECK(spec.limits.timing_budget_seconds == 3);
  CHECK(spec.limits.output_bytes == 65536);
  CHECK_FALSE(spec.limits.slowest_speed);
}

TEST_CASE("a call's limit made from a case's work is read with its least", "[spec]") {
  const temp_folder root;
  const auto given = write_problem(root, "matmul",
                                   "title: Matmul\n" + matmul_signature +
                                       "work: {flops: 2*M*N*K}\nlimits: {slowest_speed: 0.5, min_case_seconds: 1.5}\n");
  const problem_spec spec = load_problem(given);
  CHECK(spec.limits.slowest_speed == 0.5);
  CHECK(spec.limits.min_case_seconds == 1.5);
  CHECK(spec.limits.case_seconds == 10);
  const temp_folder other;
  const auto least_default = write_problem(
      other, "matmul", "title: Matmul\n" + matmul_signature + "work: {flops: 2*M*N*K}\nlimits: {slowest_speed: 2}\n");
  CHECK(load_problem(least_default).limits.min_case_seconds == 2);
}

TEST_CASE("status says whether a problem is a draft, published by default", "[spec]") {
  const temp_folder root;
  CHECK_FALSE(load_problem(write_problem(root, "a", "title: A\n" + matmul_signature)).draft);
  CHECK(load_problem(write_problem(root, "b", "title: B\nstatus: draft\n" + matmul_signature)).draft);
  CHECK_FALSE(load_problem(write_problem(root, "c", "title: C\nstatus: published\n" + matmul_signature)).draft);
  const std::string bad = load_error("title: T\nstatus: hidden\n" + matmul_signature);
  CAPTURE(bad);
  CHECK(bad.find("problem.yaml:2") != std::string::npos);
  CHECK(bad.find("status") != std::string::npos);
  CHECK(bad.find("draft") != std::string::npos);
}

TEST_CASE("tensor_cores says whether solutions may use tensor-core math", "[spec]") {
  const auto [word, allowed] = GENERATE(std::make_pair("allowed", true), std::make_pair("forbidden", false));
  CAPTURE(word);
  const temp_folder root;
  const auto dir =
      write_problem(root, "matmul", "title: Matmul\n" + matmul_signature + "tensor_cores: " + std::string(word) + "\n");
  CHECK(load_problem(dir).tensor_cores_allowed == allowed);
}

TEST_CASE("leetgpu gives LeetGPU's own tolerance, and a problem without it has none", "[spec]") {
  const temp_folder root;
  const auto with =
      write_problem(root, "matmul", "title: Matmul\n" + matmul_signature + "leetgpu: {atol: 1.0e-4, rtol: 2.0e-4}\n");
  const problem_spec spec = load_problem(with);
  REQUIRE(spec.leetgpu);
  CHECK(spec.leetgpu->atol == 1.0e-4);
  CHECK(spec.leetgpu->rtol == 2.0e-4);
  // The judge's own tolerance is untouched by it.
  CHECK(spec.tolerance.atol == 1.0e-5);
  const auto without = write_problem(root, "plain", "title: Plain\n" + matmul_signature);
  CHECK_FALSE(load_problem(without).leetgpu);
}

TEST_CASE("solve_declaration spells the signature as learners must write it", "[spec]") {
  const problem_spec spec = load_problem(JUDGE_TEST_DATA_DIR "/spec/problems/matmul_tiny");
  CHECK(spec.solve_declaration() ==
        "extern \"C\" void solve(const float* A, const float* B, float* C, int M, int N, int K)");
}

TEST_CASE("each speed unit has the one name results carry", "[spec]") {
  CHECK(std::string(judge::unit_name(judge::speed_unit::gflops)) == "GFLOPS");
  CHECK(std::string(judge::unit_name(judge::speed_unit::gbps)) == "GB/s");
}

TEST_CASE("size_names and buffers keep the signature's order", "[spec]") {
  const temp_folder root;
  const auto dir = write_problem(root, "axpy", R"(title: y = a*x + y on a strided grid
speed_unit: gbps
work: {bytes: 12*N*S}
signature:
  - {name: N, type: int, role: size}
  - {name: X, type: const float*, role: input, shape: [N, S]}
  - {name: S, type: int, role: size}
  - {name: Y, type: float*, role: output, shape: [N, S]}
)");
  const problem_spec spec = load_problem(dir);
  CHECK(spec.size_names() == std::vector<std::string>{"N", "S"});
  const auto buffers = spec.buffers();
  REQUIRE(buffers.size() == 2);
  CHECK(buffers[0]->name == "X");
  CHECK(buffers[1]->name == "Y");
  CHECK(spec.unit == judge::speed_unit::gbps);
  CHECK(spec.solve_declaration() == "extern \"C\" void solve(int N, const float* X, int S, float* Y)");
}

TEST_CASE("the role may be left out, and spacing in a type does not matter", "[spec]") {
  const temp_folder root;
  const auto dir = write_problem(root, "copy", R"(title: Copy
signature:
  - {name: X, type: "const   float *", shape: [N]}
  - {name: Y, type: float *, shape: [N]}
  - {name: N, type: int}
)");
  const problem_spec spec = load_problem(dir);
  CHECK(spec.signature[0].c_type == "const float*");
  CHECK(spec.signature[0].role == param_role::input);
  CHECK(spec.signature[1].c_type == "float*");
  CHECK(spec.signature[1].role == param_role::output);
  CHECK(spec.signature[2].role == param_role::size);
}

TEST_CASE("a size parameter no shape uses is accepted when the work or a sum counts it", "[spec]") {
  // LeetGPU's spmv: nnz counts the nonzeros of a matrix passed dense, and sizes no buffer.
  const temp_folder root;
  const std::string signature = R"(signature:
  - {name: A, type: const float*, shape: [M, N]}
  - {name: y, type: float*, shape: [M]}
  - {name: M, type: int}
  - {name: N, type: int}
  - {name: nnz, type: int}
)";
  const auto by_work = write_problem(root, "spmv", "title: Spmv\n" + signature + "work: {flops: 2*nnz}\n");
  CHECK(load_problem(by_work).size_names() == std::vector<std::string>{"M", "N", "nnz"});
  const auto by_sum =
      write_problem(root, "rows", "title: Rows\n" + signature + "tolerance: {sum: {terms: nnz, of: [A]}}\n");
  CHECK(load_problem(by_sum).tolerance.sum->terms.names() == std::vector<std::string>{"nnz"});
}

TEST_CASE("a wrong value is reported with the file, the line and the field", "[spec]") {
  const std::string message =
      load_error("title: Matmul\n" + matmul_signature + "tolerance:\n  rtol: 1e-4\n  atol: abc\n");
  CHECK(message == "problems/matmul/problem.yaml:11: field 'tolerance.atol': expected a number, got \"abc\"");
  // yaml-cpp places an empty value on the next line; the message still points at the key.
  CHECK(load_error("title: Matmul\n" + matmul_signature + "tolerance:\n  atol:\n  rtol: 1e-4\n") ==
        "problems/matmul/problem.yaml:10: field 'tolerance.atol': expected a number, got nothing");
  CHECK(load_error("title: Matmul\n" + matmul_signature + "speed_unit:\n") ==
        "problems/matmul/problem.yaml:9: field 'speed_unit': expected text, got nothing");
}

TEST_CASE("a YAML syntax error is reported with the file and the line", "[spec]") {
  const std::string message = load_error("title: Matmul\nsignature: [\n  {name: A\n");
  CAPTURE(message);
  CHECK(message.rfind("problems/matmul/problem.yaml:", 0) == 0);
  CHECK(message.find(": not valid YAML: ") != std::string::npos);
}

TEST_CASE("an invalid problem.yaml is rejected with a message saying what is wrong", "[spec]") {
  struct row {
    std::string yaml;
    std::string expected;
  };
  const std::string title = "title: Matmul\n";
  const std::string head = title + matmul_signature;
  const row r = GENERATE_COPY(
      // fields and values
      row{head + "tolerence: {atol: 1}\n",
          "problem.yaml:9: unknown field 'tolerence'; did you mean 'tolerance'? (allowed: title, status, statement, "
          "signature, "
          "tolerance, leetgpu, work, speed_unit, inputs, baseline, banned_libraries, tensor_cores, limits)"},
      row{head + "leetgpu: {atol: 0.01}\n",
          "problem.yaml:9: field 'leetgpu.rtol' is required (LeetGPU's relative tolerance)"},
      row{head + "leetgpu: {atol: -1, rtol: 0}\n", "field 'leetgpu.atol': must be a finite number >= 0, got -1"},
      row{head + "leetgpu: {atol: 0.01, rtol: 0.01, sum: true}\n",
          "unknown field 'leetgpu.sum' (allowed in 'leetgpu': atol, rtol)"},
      row{head + "tolerance: {atl: 1}\n",
          "unknown field 'tolerance.atl'; did you mean 'tolerance.atol'? (allowed in 'tolerance': atol, rtol, sum)"},
      row{head + "colour: blue\n", "unknown field 'colour' (allowed: title,"},
      row{head + "tolerance: {rtol: -1}\n", "field 'tolerance.rtol': must be a finite number >= 0, got -1"},
      row{head + "tolerance: {atol: .inf}\n", "field 'tolerance.atol': must be a finite number >= 0, got .inf"},
      row{head + "tolerance: {atol: .nan}\n", "field 'tolerance.atol': must be a finite number >= 0, got .nan"},
      row{head + "tolerance: 1e-5\n",
          "field 'tolerance': expected a mapping with the fields atol, rtol, sum, got \"1e-5\""},
      row{head + "speed_unit: tflops\n", "field 'speed_unit': unknown unit \"tflops\" (known: gflops, gbps)"},
      row{head + "work: {flops: 2*M*Q}\n",
          "field 'work.flops': '2*M*Q' uses 'Q', which is not a size parameter (size parameters: M, N, K)"},
      row{head + "work: {bytes: 4*M*}\n", "field 'work.bytes': size expression '4*M*' ends where"},
      row{head + "limits: {case_seconds: 0}\n",
          "field 'limits.case_seconds': must be a number of seconds above 0, got 0"},
      row{head + "limits: {slowest_speed: 0}\n",
          "field 'limits.slowest_speed': must be a speed in GFLOPS above 0, got 0"},
      row{head + "limits: {slowest_speed: 1}\n",
          "field 'limits.slowest_speed': needs the work it is a speed of: the problem's speed unit is GFLOPS, and "
          "work.flops is not given"},
      row{head + "speed_unit: gbps\nwork: {flops: 2*M*N*K}\nlimits: {slowest_speed: 1}\n",
          "the problem's speed unit is GB/s, and work.bytes is not given"},
      row{head + "limits: {min_case_seconds: 1}\n",
          "field 'limits.min_case_seconds': is the least of a limit made from a case's work, and "
          "limits.slowest_speed, its speed, is not given"},
      row{head + "work: {flops: 2*M*N*K}\nlimits: {case_seconds: 3, slowest_speed: 1, min_case_seconds: 4}\n",
          "field 'limits.min_case_seconds': the least a case gives a call (4 s) is more than the most, "
          "limits.case_seconds (3 s)"},
      row{head + "work: {flops: 2*M*N*K}\nlimits: {case_seconds: 1, slowest_speed: 1}\n",
          "the least a case gives a call (2 s) is more than the most, limits.case_seconds (1 s)"},
      row{head + "limits: {compile_seconds: soon}\n",
          "field 'limits.compile_seconds': expected a number, got \"soon\""},
      row{head + "limits: {output_bytes: 1.5}\n", "field 'limits.output_bytes': expected an integer, got \"1.5\""},
      row{head + "limits: {output_bytes: -4}\n",
          "field 'limits.output_bytes': must be a number of bytes above 0, got -4"},
      row{head + "statement: missing.md\n", "field 'statement': file 'problems/matmul/missing.md' does not exist"},
      row{head + "statement: /etc/passwd\n", "field 'statement': must be a path relative to the problem folder"},
      row{head + "baseline: {source: baseline.cu}\n",
          "field 'baseline.source': file 'problems/matmul/baseline.cu' does not exist"},
      row{head + "baseline: {is_reference: true}\n",
          "field 'baseline.is_reference': is true, but baseline.source names no baseline"},
      row{head + "baseline: {is_reference: maybe}\n",
          "field 'baseline.is_reference': expected true or false, got \"maybe\""},
      row{head + "tensor_cores: yes\n", "field 'tensor_cores': unknown choice \"yes\" (known: allowed, forbidden)"},
      row{head + "banned_libraries: cublas\n",
          "field 'banned_libraries': expected a list such as [a, b], got \"cublas\""},
      row{head + "banned_libraries: [cublas, \"x -Wl,--wrap\"]\n",
          "field 'banned_libraries[1]': 'x -Wl,--wrap' is not a library name"},
      row{title + "title: Again\n" + matmul_signature, "problem.yaml:2: field 'title' appears twice (first on line 1)"},
      row{matmul_signature, "problem.yaml:1: field 'title' is required"}, row{title, "field 'signature' is required"},
      row{"", "field 'title' is required"},
      row{"- title\n", "problem.yaml:1: expected a mapping with the fields title, status, statement,"},
      // distributions
      row{head + "inputs: {distribution: {kind: uniform, low: 1, high: 1}}\n",
          "field 'inputs.distribution': low must be below high, got low 1 and high 1"},
      row{head + "inputs: {distribution: {kind: cancel, low: 2, high: 1}}\n",
          "low must be below high, got low 2 and high 1"},
      row{head + "inputs: {distribution: {kind: normal, mean: 0, stddev: 0}}\n",
          "field 'inputs.distribution.stddev': must be above 0, got 0"},
      row{head + "inputs: {distribution: {kind: gaussian}}\n",
          "field 'inputs.distribution.kind': unknown distribution \"gaussian\" (known: uniform, normal, constant, "
          "cancel, uniform_int, ramp, offsets, sparse, spike, alternating, special)"},
      row{head + "inputs: {distribution: {low: 0, high: 1}}\n",
          "field 'inputs.distribution.kind' is required (one of uniform, normal, constant, cancel, uniform_int, ramp, "
          "offsets, sparse, spike, alternating, special)"},
      row{head + "inputs: {distribution: {kind: normal, mean: 0, stddev: 1, low: 0}}\n",
          "unknown field 'inputs.distribution.low' (allowed in 'inputs.distribution' for kind normal: kind, mean, "
          "stddev)"},
      row{head + "inputs: {distribution: {kind: uniform, low: 0}}\n",
          "field 'inputs.distribution.high' is required (for kind uniform)"},
      row{head + "inputs: {distribution: {kind: constant, value: 1e39}}\n",
          "field 'inputs.distribution.value': must be a finite number that a float can hold, got 1e39"},
      row{head + "inputs: {distribution: uniform}\n",
          "field 'inputs.distribution': expected a distribution such as {kind: uniform, low: -1.0, high: 1.0}"},
      // the signature
      row{title + "signature: []\n", "field 'signature': expected a list of parameters"},
      row{title + "signature:\n  - {name: A, type: const float*, role: input, shape: [N]}\n  - {name: N, type: int}\n",
          "field 'signature': needs at least one output or inout buffer (type float* or int*)"},
      row{title + "signature:\n  - {name: C, type: float*, role: input, shape: [N]}\n  - {name: N, type: int}\n",
          "problem.yaml:3: field 'signature[0].role': 'input' does not agree with type 'float*', which makes it an "
          "output"},
      row{title + "signature:\n  - {name: N, type: int, role: output}\n  - {name: C, type: float*, shape: [N]}\n",
          "field 'signature[0].role': 'output' does not agree with type 'int', which makes it a size"},
      row{title + "signature:\n  - {name: C, type: float*, role: result, shape: [N]}\n  - {name: N, type: int}\n",
          "field 'signature[0].role': unknown role \"result\" (known: input, output, inout, size, scalar)"},
      row{title + "signature:\n  - {name: C, type: double*, shape: [N]}\n  - {name: N, type: int}\n",
          "field 'signature[0].type': unknown type \"double*\" (known: const float*, float*, const int*, int*, int, "
          "float)"},
      row{title + "signature:\n  - {name: C, shape: [N]}\n  - {name: N, type: int}\n",
          "field 'signature[0].type' is required (one of const float*, float*, const int*, int*, int, float)"},
      row{title + "signature:\n  - {name: 2C, type: float*, shape: [N]}\n  - {name: N, type: int}\n",
          "field 'signature[0].name': '2C' is not a usable C parameter name"},
      row{title + "signature:\n  - {name: float, type: float*, shape: [N]}\n  - {name: N, type: int}\n",
          "'float' is not a usable C parameter name"},
      row{title + "signature:\n  - {name: C, type: float*, shape: [N]}\n  - {name: C, type: int}\n",
          "problem.yaml:4: field 'signature[1].name': 'C' is already the name of signature[0]"},
      row{title + "signature:\n  - {name: C, type: float*}\n  - {name: N, type: int}\n",
          "problem.yaml:3: field 'signature[0].shape' is required for a buffer (e.g. [M, K])"},
      row{title + "signature:\n  - {name: C, type: float*, shape: []}\n  - {name: N, type: int}\n",
          "field 'signature[0].shape': expected a non-empty list of extents such as [M, K], got a list"},
      row{title + "signature:\n  - {name: C, type: float*, shape: [N, X]}\n  - {name: N, type: int}\n",
          "field 'signature[0].shape[1]': 'X' uses 'X', which is not a size parameter (size parameters: N)"},
      row{title + "signature:\n  - {name: C, type: float*, shape: [N+]}\n  - {name: N, type: int}\n",
          "field 'signature[0].shape[0]': size expression 'N+' ends where"},
      row{title + "signature:\n  - {name: C, type: float*, shape: [N]}\n  - {name: N, type: int, shape: [N]}\n",
          "field 'signature[1].shape': a size parameter has no shape; only buffers do"},
      row{title + "signature:\n  - {name: C, type: float*, shape: [N]}\n  - {name: N, type: int}\n  - {name: P, type: "
                  "int}\n",
          "problem.yaml:5: field 'signature[2]': size parameter 'P' is not used in any buffer's shape"},
      row{title + "signature:\n  - {name: C, tyep: float*, shape: [N]}\n  - {name: N, type: int}\n",
          "unknown field 'signature[0].tyep'; did you mean 'signature[0].type'? (allowed in 'signature[0]': name, "
          "type, "
          "role, shape, initial, default)"},
      row{title + "signature:\n  - {name: C, type: float*, shape: [N], size: 4}\n  - {name: N, type: int}\n",
          "unknown field 'signature[0].size' (allowed in 'signature[0]': name, type, role, shape, initial, default)"});
  const std::string message = load_error(r.yaml);
  CAPTURE(r.yaml);
  CAPTURE(message);
  CHECK(message.rfind("problems/matmul/problem.yaml", 0) == 0);
  CHECK(message.find(r.expected) != std::string::npos);
}

TEST_CASE("a missing problem is an error that names the problems there are", "[spec]") {
  const temp_folder root;
  write_problem(root, "vector_add",
                "title: Vector add\nsignature:\n  - {name: C, type: float*, shape: [N]}\n  - {name: N, type: int}\n");
  write_problem(root, "matmul", "title: Matmul\n" + matmul_signature);
  root.write("problems/half_done/statement.md", "no problem.yaml here yet\n");

  CHECK(message_of<spec_error>([&] { load_problem(root.path() / "problems/matmull"); }) ==
        "no problem 'matmull': problems/matmull/problem.yaml does not exist (known problems: matmul, vector_add)");
  CHECK(message_of<spec_error>([&] { load_problem(root.path() / "problems/half_done"); }) ==
        "no problem 'half_done': problems/half_done/problem.yaml does not exist (known problems: matmul, vector_add)");
  const std::string nothing_there = message_of<spec_error>([&] { load_problem(root.path() / "elsewhere/x"); });
  CHECK(nothing_there.find("no problem 'x': elsewhere/x/problem.yaml does not exist (there are no problems in ") == 0);
}

TEST_CASE("a problem folder may be named with a trailing slash or a relative path", "[spec]") {
  const temp_folder root;
  const auto dir = write_problem(root, "matmul", "title: Matmul\n" + matmul_signature);
  CHECK(load_problem(dir.string() + "/").name == "matmul");
  CHECK(load_problem(dir / ".." / "matmul").dir == dir);
}

TEST_CASE("list_problems names the folders that hold a problem.yaml, sorted", "[spec]") {
  const temp_folder root;
  write_problem(root, "zeta", "title: z\n");
  write_problem(root, "alpha", "title: a\n");
  root.write("problems/notes/readme.md", "not a problem\n");
  root.write("problems/stray.yaml", "title: not a folder\n");
  CHECK(judge::list_problems(root.path() / "problems") == std::vector<std::string>{"alpha", "zeta"});
  CHECK(judge::list_problems(root.path() / "no_such_folder").empty());
}
