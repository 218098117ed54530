// problems/<name>/problem.yaml as a value (docs/problem-format.md documents every field).
#pragma once

#include "size_expr.hpp"

#include <datagen.h>

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

enum class param_role { input, output, size };

struct parameter {
  std::string name;
  std::string c_type; ///< "const float*", "float*" or "int"
  param_role role = param_role::size;
  std::vector<size_expr> shape; ///< buffers only: row-major extents
};

struct tolerance {
  double atol = 1e-5;
  double rtol = 1e-5;
};

enum class speed_unit { gflops, gbps };

/// The unit's name as results carry it (solution_result::speed_unit, the store, reports): "GFLOPS" or "GB/s".
constexpr const char* unit_name(speed_unit unit) { return unit == speed_unit::gflops ? "GFLOPS" : "GB/s"; }

struct baseline_spec {
  std::filesystem::path source; ///< absolute; empty when the problem has no baseline
  std::string label = "baseline";
  std::vector<std::string> libraries;
  bool is_reference = false;
};

struct limits {
  double compile_seconds = 60;          // [s]
  double case_seconds = 10;             // [s] one checked call
  double timing_budget_seconds = 3;     // [s] adaptive timing of one case
  std::size_t output_bytes = 64 * 1024; // [B] learner output kept
};

struct problem_spec {
  std::string name;                ///< folder name
  std::filesystem::path dir;       ///< absolute path of problems/<name>
  std::filesystem::path spec_file; ///< problems/<name>/problem.yaml
  std::string title;
  std::filesystem::path statement; ///< absolute
  std::vector<parameter> signature;
  judge::tolerance tolerance;
  size_expr flops; ///< [FLOP] per call
  size_expr bytes; ///< [B] per call
  speed_unit unit = speed_unit::gflops;
  judge_data::distribution input_distribution;
  baseline_spec baseline;
  std::vector<std::string> banned_libraries;
  /// `tensor_cores: allowed`: solutions may use tensor-core math (e.g. 3xTF32, which keeps FP32 accuracy),
  /// so a solution whose machine code issues tensor-core instructions is held to the tensor cores' TF32
  /// peak instead of the FP32 peak; one whose code does not keeps the FP32 floor (grading/plausibility.hpp,
  /// build/tensor_core_use.hpp). Default: forbidden (the FP32 floor for every solution).
  bool tensor_cores_allowed = false;
  judge::limits limits;

  std::vector<std::string> size_names() const;   ///< size parameters in signature order
  std::vector<const parameter*> buffers() const; ///< pointer parameters in signature order
  /// `extern "C" void solve(const float* A, ...)` exactly as learners must write it.
  std::string solve_declaration() const;
};

/// Parses and validates problems/<name>/problem.yaml; throws spec_error.
problem_spec load_problem(const std::filesystem::path& problem_dir);

/// Names of the problems under `problems_root` (folders holding a problem.yaml), sorted.
std::vector<std::string> list_problems(const std::filesystem::path& problems_root);

} // namespace judge
