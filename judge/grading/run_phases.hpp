// Where a grading run's wall time went, phase by phase: what the report's "phases" and a GPU worker's
// batch line show, so that a slow GPU, a slow queue and a slow runner start can be told apart.
#pragma once

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace judge {

/// Where a run's wall time went, in order: (phase, seconds).
using run_phases = std::vector<std::pair<std::string, double>>;

/// Adds the seconds since the last call (or since construction) to a run's phases, merging a phase that
/// comes back (the compile wait, between solutions) into its first entry.
class phase_clock {
public:
  explicit phase_clock(run_phases& phases) : m_phases(phases) {}
  /// The time since the last lap goes to `phase`, except the parts of it that `within` names (each
  /// (phase, seconds), measured inside this lap), which go to their own phases.
  void lap(const std::string& phase, const run_phases& within = {});

private:
  void add(const std::string& phase, double seconds);

  run_phases& m_phases;
  std::chrono::steady_clock::time_point m_start = std::chrono::steady_clock::now();
};

} // namespace judge
