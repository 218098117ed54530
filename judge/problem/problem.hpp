// problems/<name>/problem.yaml as a value (docs/problem-format.md documents every field).
#pragma once

#include "judge/problem/size_expr.hpp"

#include "common/datagen.h"
#include "common/wire.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace judge {

/// A problem.yaml or cases.yaml that cannot be used; what() names file, line, field and the fix.
class spec_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// input: a read-only buffer; output: a buffer solve() writes; inout: a buffer solve() reads and
/// overwrites in place (compared as an output); size: an int that sizes the buffers; scalar: a float.
enum class param_role { input, output, inout, size, scalar };

struct parameter {
  std::string name;
  std::string c_type; ///< "const float*", "float*", "const int*", "int*", "int" or "float"
  param_role role = param_role::size;
  judge_data::element_type type = judge_data::element_type::float32; ///< buffers: their elements
  std::vector<size_expr> shape;                                      ///< buffers only: row-major extents
  /// Outputs only: what solve() finds in the buffer (`initial: zero`, or poison by default).
  judge_wire::output_start start = judge_wire::output_start::poison;
  std::optional<double> default_value; ///< scalars only: the value of a case that names none

  bool is_buffer() const noexcept { return role != param_role::size && role != param_role::scalar; }
  /// Filled by the judge before the call: inputs and inout buffers.
  bool is_generated() const noexcept { return role == param_role::input || role == param_role::inout; }
  /// Compared with the reference after the call: outputs and inout buffers.
  bool is_result() const noexcept { return role == param_role::output || role == param_role::inout; }
};

/// The outputs are float sums whose rounding error grows with the number of terms: how the judge widens
/// the tolerance per case (docs/problem-format.md, `tolerance.sum`).
struct sum_rule {
  size_expr terms;             ///< the most terms one output element sums, an expression over the sizes
  std::vector<std::string> of; ///< input buffers whose largest |values| multiply to bound one term
  bool relative = false;       ///< the terms share one sign: the error is relative to the result
  /// The terms are weighted by factors that sum to 1 (softmax probabilities): Σ|term| is at most the
  /// product of the `of` magnitudes, not T times it.
  bool weighted = false;
};

struct tolerance {
  double atol = 1e-5;
  double rtol = 1e-5;
  std::optional<sum_rule> sum; ///< absent: atol and rtol are the whole tolerance
  /// A case's `compare: exact`: a float element passes only when it equals the reference rounded to float
  /// (−0.0 equals 0.0); atol and rtol are then 0, which is the same rule in the runner, whose reference
  /// is float.
  bool exact = false;
};

/// A tolerance another judge publishes for the same problem (problem.yaml's `leetgpu`): never what decides
/// here, only what a wrong answer is measured against as well, so that its message can say "within
/// LeetGPU's tolerance". LeetGPU compares with torch.allclose(reference, output): |ref − got| <= atol +
/// rtol·|got|.
struct published_tolerance {
  double atol = 0;
  double rtol = 0;
};

enum class speed_unit { gflops, gbps };

/// The unit's name as results carry it (solution_result::speed_unit, the store, reports): "GFLOPS" or "GB/s".
constexpr const char* unit_name(speed_unit unit) { return unit == speed_unit::gflops ? "GFLOPS" : "GB/s"; }
/// The `work` field the unit is a rate of: "flops" for GFLOPS, "bytes" for GB/s.
constexpr const char* work_field(speed_unit unit) { return unit == speed_unit::gflops ? "flops" : "bytes"; }

struct baseline_spec {
  std::filesystem::path source; ///< absolute; empty when the problem has no baseline
  std::string label = "baseline";
  std::vector<std::string> libraries;
  bool is_reference = false;
};

struct limits {
  double compile_seconds = 60;          // [s]
  double case_seconds = 10;             // [s] one checked call, the most any case gives it
  /// A case with little work gives a call less time than case_seconds: its work at this speed (the
  /// problem's speed unit, GFLOPS or GB/s), never under min_case_seconds (call_limit.hpp). Absent: every
  /// case gives case_seconds.
  std::optional<double> slowest_speed;
  double min_case_seconds = 2;          // [s] the least a case gives a call where slowest_speed is set
  double timing_budget_seconds = 3;     // [s] adaptive timing of one case
  std::size_t output_bytes = 64 * 1024; // [B] learner output kept
};

struct problem_spec {
  std::string name;                ///< folder name
  std::filesystem::path dir;       ///< absolute path of problems/<name>
  std::filesystem::path spec_file; ///< problems/<name>/problem.yaml
  std::string title;
  /// `status: draft`: the problem is being written; a server shows it to instructors only and refuses
  /// students' submissions. Default `published`.
  bool draft = false;
  std::filesystem::path statement; ///< absolute
  std::vector<parameter> signature;
  judge::tolerance tolerance;
  /// `leetgpu: {atol, rtol}`: LeetGPU's own tolerance for this problem, where it has one.
  std::optional<published_tolerance> leetgpu;
  size_expr flops; ///< [FLOP] per call
  size_expr bytes; ///< [B] per call
  speed_unit unit = speed_unit::gflops;
  /// The work `unit` is a rate of: flops for GFLOPS, bytes for GB/s.
  const size_expr& unit_work() const { return unit == speed_unit::gflops ? flops : bytes; }
  judge_data::distribution input_distribution;
  /// `inputs.buffers.<name>`: a buffer's own default distribution (an int buffer needs an integer one).
  std::map<std::string, judge_data::distribution> buffer_distributions;
  baseline_spec baseline;
  std::vector<std::string> banned_libraries;
  /// `tensor_cores: allowed`: solutions may use tensor-core math (e.g. 3xTF32, which keeps FP32 accuracy),
  /// so a solution whose machine code issues tensor-core instructions is held to the tensor cores' TF32
  /// peak instead of the FP32 peak; one whose code does not keeps the FP32 floor (grading/plausibility.hpp,
  /// compile/tensor_core_use.hpp). Default: forbidden (the FP32 floor for every solution).
  bool tensor_cores_allowed = false;
  judge::limits limits;

  std::vector<std::string> size_names() const;   ///< size parameters in signature order
  std::vector<std::string> scalar_names() const; ///< float parameters in signature order
  std::vector<const parameter*> buffers() const; ///< pointer parameters in signature order
  /// `extern "C" void solve(const float* A, ...)` exactly as learners must write it.
  std::string solve_declaration() const;
};

/// Parses and validates problems/<name>/problem.yaml; throws spec_error.
problem_spec load_problem(const std::filesystem::path& problem_dir);

/// Names of the problems under `problems_root` (folders holding a problem.yaml), sorted.
std::vector<std::string> list_problems(const std::filesystem::path& problems_root);

} // namespace judge
