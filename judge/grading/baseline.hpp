// What the baseline runner leaves for grading the solutions of one run: its outputs (when it is a
// reference), the cases where they and the CPU reference disagree, and its timings.
#pragma once

#include "judge/record/grade_result.hpp"
#include "judge/problem/problem.hpp"
#include "judge/problem/cases.hpp"

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace judge {

using float_outputs = std::map<std::string, std::vector<float>>;   ///< by buffer name
using double_outputs = std::map<std::string, std::vector<double>>; ///< by buffer name

struct baseline_record {
  /// By (case index, checked call): kept only when the baseline is a reference.
  std::map<std::pair<std::size_t, int>, float_outputs> outputs;
  /// Cases where the baseline's outputs and the CPU reference disagree: no learner is judged by them.
  std::set<std::size_t> disagreeing_cases;
  std::map<std::string, timing_summary> timings; ///< by case name
};

/// Whether any output of case `c` in `baseline` is outside the spec's tolerance of `reference`.
bool references_disagree(const problem_spec& spec, const test_case& c, const float_outputs& baseline,
                         const double_outputs& reference);

/// Whether every output in `baseline` holds exactly the values of `reference` (an int32 buffer: the same
/// ints). Then comparing a solution's output with the baseline's would repeat its comparison with the
/// CPU reference, element for element, and the baseline's outputs need not be kept.
bool same_as_reference(const problem_spec& spec, const float_outputs& baseline, const double_outputs& reference);

} // namespace judge
