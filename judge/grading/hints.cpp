#include "hints.hpp"

namespace judge {

std::vector<hint> hints_for(const hint_facts& facts) {
  std::vector<hint> hints;
  for (const hint_rule& rule : hint_rules()) {
    std::string evidence = rule.evidence(facts);
    if (!evidence.empty()) hints.push_back({rule.id, rule.lesson, std::move(evidence)});
  }
  return hints;
}

occupancy launch_occupancy(const judge_wire::kernel_launch& launch, const sm_limits& sm) {
  return theoretical_occupancy(sm, static_cast<int>(launch.threads_per_block()), static_cast<int>(launch.registers),
                               launch.static_shared_bytes + launch.dynamic_shared_bytes);
}

} // namespace judge
