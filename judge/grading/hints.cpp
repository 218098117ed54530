#include "judge/grading/hints.hpp"

namespace judge {

namespace {
std::vector<hint> fired(const hint_facts& facts, const std::optional<hint_source>& only) {
  std::vector<hint> hints;
  for (const hint_rule& rule : hint_rules()) {
    if (only && rule.source != *only) continue;
    std::string evidence = rule.evidence(facts);
    if (!evidence.empty()) hints.push_back({rule.id, rule.lesson, std::move(evidence)});
  }
  return hints;
}
} // namespace

std::vector<hint> hints_for(const hint_facts& facts) { return fired(facts, std::nullopt); }

std::vector<hint> profiler_hints(const hint_facts& facts) { return fired(facts, hint_source::profiler); }

occupancy launch_occupancy(const judge_wire::kernel_launch& launch, const sm_limits& sm) {
  return theoretical_occupancy(sm, static_cast<int>(launch.threads_per_block()), static_cast<int>(launch.registers),
                               launch.static_shared_bytes + launch.dynamic_shared_bytes);
}

} // namespace judge
