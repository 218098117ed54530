// The wall time of a scope, added to a running total when the scope ends, however it ends (a return, an
// exception): for the phases of a grading (the judge's runner hello waits and timed cases, the runner's
// input generation and GPU reference checks inside a case's timing).
#pragma once

#include <chrono>

namespace judge_phases {

/// Adds the seconds of its own lifetime to `total`.
struct seconds_into {
  double& total;
  std::chrono::steady_clock::time_point began = std::chrono::steady_clock::now();
  ~seconds_into() { total += std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count(); }
};

} // namespace judge_phases
