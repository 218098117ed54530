// Hints: lessons tied to the measured figures that point to them. The rules are data (hint_rules.cpp):
// each has an id, the figure that triggers it, its lesson, and a function that returns the evidence
// (the figures, in words) when it fires and "" when it does not.
#pragma once

#include "grade_result.hpp"
#include "occupancy.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace judge {

/// What the rules read: a graded solution and what the grader knows beyond it.
struct hint_facts {
  const solution_result& result;
  /// Per case of result.cases: the elements of all output buffers of one call (0 when unknown).
  std::vector<std::int64_t> output_elements;
  /// The SM of the device it ran on, when its compute capability is known (sm_limits_for).
  std::optional<sm_limits> sm;
};

struct hint_rule {
  const char* id;
  const char* trigger; ///< the measured figure that fires it, in words
  const char* lesson;
  std::function<std::string(const hint_facts&)> evidence; ///< "" when the rule does not fire
};

/// Every rule, in the order hints are shown (hint_rules.cpp).
const std::vector<hint_rule>& hint_rules();

/// The hints whose rules fire on `facts`, in rule order.
std::vector<hint> hints_for(const hint_facts& facts);

/// The theoretical occupancy of one recorded launch (its registers, block size and shared memory).
occupancy launch_occupancy(const judge_wire::kernel_launch& launch, const sm_limits& sm);

} // namespace judge
