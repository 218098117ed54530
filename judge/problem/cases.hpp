// testcases/<problem>/cases.yaml as values (docs/problem-format.md documents every field).
#pragma once

#include "judge/problem/problem.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace judge {

enum class visibility { sample, hidden };

/// A case's own `tolerance:` (docs/problem-format.md): it replaces the problem's atol, rtol or both, and
/// the problem's `tolerance.sum` rule still widens them unless it says `sum: false`.
struct tolerance_override {
  std::optional<double> atol, rtol;
  bool sum = true;
};

/// How a case's outputs are compared with the reference: within a tolerance, or `compare: exact` (every
/// float element equal to the reference rounded to float, −0.0 equal to 0.0).
enum class comparison { tolerance, exact };

struct test_case {
  std::string name;
  judge::visibility visibility = visibility::hidden;
  size_values sizes;      ///< every size parameter
  std::map<std::string, double> scalars; ///< every float parameter, its default applied
  std::uint64_t seed = 0; ///< as written; see check_seed.hpp
  bool timed = true;
  std::map<std::string, judge_data::distribution> distributions; ///< per input or inout buffer, resolved
  /// Explicit inputs, by buffer name: 32-bit elements (an int32 buffer's as bits, judge_data::word_of_int).
  std::map<std::string, std::vector<float>> data;
  /// Expected outputs, by buffer name (only with explicit data for every input): what the CPU
  /// reference must give, within the problem's tolerance (`judge cases <problem> --check`).
  std::map<std::string, std::vector<double>> expected;
  std::optional<tolerance_override> tolerance; ///< absent: the problem's tolerance
  judge::comparison compare = comparison::tolerance;
  /// `beyond_limits`: why the case lies outside the problem's published limits ("N past LeetGPU's limit of
  /// 100,000,000"); empty for a case within them. Such a robustness case is run last, reported apart and
  /// never timed, and never changes a verdict, rank or speed, unless grading is strict (grade_options).
  std::string beyond_limits;
  int line = 0; ///< line in cases.yaml, for messages

  bool robustness() const { return !beyond_limits.empty(); }
};

/// Loads and validates the cases of `spec` from `cases_file` (sizes complete and ≥ 1, buffer counts
/// representable, explicit data and expected outputs of the right length, names unique); throws spec_error.
std::vector<test_case> load_cases(const problem_spec& spec, const std::filesystem::path& cases_file);

/// Position of the case named `name` among `cases` (of problem `spec`); throws usage_error naming the
/// problem and how to list its cases when there is none.
std::size_t index_of_case(const problem_spec& spec, const std::vector<test_case>& cases, const std::string& name);

/// Element count of every buffer for this case, by name; throws spec_error on overflow.
std::map<std::string, std::int64_t> buffer_counts(const problem_spec& spec, const test_case& c);

/// "1024x512x1024" style shape text: size values in signature order joined by 'x'.
std::string shape_text(const problem_spec& spec, const test_case& c);

} // namespace judge
