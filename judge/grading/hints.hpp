// Hints: lessons tied to the measured figures that point to them. The rules are data (hint_rules.cpp):
// each has an id, the figure that triggers it, its lesson, and a function that returns the evidence
// (the figures, in words) when it fires and "" when it does not.
#pragma once

#include "judge/record/grade_result.hpp"
#include "judge/grading/occupancy.hpp"
#include "judge/profile/profile_digest.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace judge {

/// What the rules read: a graded solution and what the grader knows beyond it.
struct hint_facts {
  hint_facts(const solution_result& r, std::vector<std::int64_t> outputs = {}, std::optional<sm_limits> limits = {})
      : result(r), output_elements(std::move(outputs)), sm(std::move(limits)) {}

  const solution_result& result;
  /// Per case of result.cases: the elements of all output buffers of one call (0 when unknown).
  std::vector<std::int64_t> output_elements;
  /// The SM of the device it ran on, when its compute capability is known (sm_limits_for).
  std::optional<sm_limits> sm;
  /// Nsight Compute's digest of its kernels on `profiled_case` (profile/profile_digest.hpp); empty when it was not
  /// profiled (grading never profiles: `judge run --explain` and `judge profile` do, after the timing).
  std::vector<kernel_digest> profile;
  std::string profiled_case;
  /// The problem lets solutions use tensor cores (problem.yaml `tensor_cores: allowed`).
  bool tensor_cores_allowed = false;
};

/// Where a rule's figures come from.
enum class hint_source {
  grading,  ///< the compile (ptxas), the checks and the timed run: every graded result has them
  profiler, ///< Nsight Compute's digest (hint_facts::profile): only a profiled solution has them
};

struct hint_rule {
  const char* id;
  const char* trigger; ///< the measured figure that fires it, in words
  const char* lesson;
  std::function<std::string(const hint_facts&)> evidence; ///< "" when the rule does not fire
  hint_source source = hint_source::grading;
};

/// Every rule, in the order hints are shown (hint_rules.cpp).
const std::vector<hint_rule>& hint_rules();

/// The hints whose rules fire on `facts`, in rule order.
std::vector<hint> hints_for(const hint_facts& facts);

/// The hints of the profiler's rules only: what a profile adds to a graded result's hints.
std::vector<hint> profiler_hints(const hint_facts& facts);

/// The theoretical occupancy of one recorded launch (its registers, block size and shared memory).
occupancy launch_occupancy(const judge_wire::kernel_launch& launch, const sm_limits& sm);

} // namespace judge
