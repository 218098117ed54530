// The wall time of a scope, added to a running total when the scope ends, however it ends (a return, an
// exception): for the phases of a grading (a runner's hello waits, a solution's timed cases).
#pragma once

#include <chrono>

namespace judge {

/// Adds the seconds of its own lifetime to `total`.
struct seconds_into {
  double& total;
  std::chrono::steady_clock::time_point began = std::chrono::steady_clock::now();
  ~seconds_into() { total += std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count(); }
};

} // namespace judge
