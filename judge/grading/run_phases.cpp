#include "judge/grading/run_phases.hpp"

#include <algorithm>

namespace judge {

void phase_clock::lap(const std::string& phase, const run_phases& within) {
  const auto now = std::chrono::steady_clock::now();
  double seconds = std::chrono::duration<double>(now - m_start).count();
  m_start = now;
  for (const auto& [part, part_seconds] : within) {
    if (part_seconds <= 0) continue;
    add(part, part_seconds);
    seconds -= part_seconds;
  }
  add(phase, std::max(0.0, seconds));
}

void phase_clock::add(const std::string& phase, double seconds) {
  for (auto& [name, total] : m_phases)
    if (name == phase) {
      total += seconds;
      return;
    }
  m_phases.emplace_back(phase, seconds);
}

} // namespace judge
