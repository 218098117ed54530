// One compute-sanitizer tool run on one case, as the graded record keeps it (record/grade_result.hpp):
// how the run went, the tool's own count, and the findings its output was read into (sanitizer_output.hpp).
#pragma once

#include "judge/sanitizer/sanitizer_output.hpp"

#include <string>
#include <vector>

namespace judge {

/// How a compute-sanitizer run of a case went (sanitize.hpp).
enum class sanitizer_state {
  ran,           ///< it ran to its end; its findings are complete (up to the kept number)
  timed_out,     ///< stopped at its time limit; the findings are those printed before
  not_available, ///< no compute-sanitizer was found (the detail says where the judge looked)
  failed,        ///< it could not run the case (the detail has the tool's or the sandbox's words)
};

/// One compute-sanitizer tool run on one case, to explain a failure (or on request, --sanitize). It never
/// changes a verdict and its time is never counted.
struct sanitizer_run {
  sanitizer_tool tool = sanitizer_tool::memcheck;
  sanitizer_state state = sanitizer_state::ran;
  std::string detail;                      ///< not_available, failed: why
  int errors = -1;                         ///< the tool's count; -1 when it printed none
  std::vector<sanitizer_finding> findings; ///< the first few, in the order printed
  double seconds = 0;                      ///< [s] the run's wall time

  bool operator==(const sanitizer_run& o) const {
    return tool == o.tool && state == o.state && detail == o.detail && errors == o.errors && findings == o.findings &&
           seconds == o.seconds;
  }
};

} // namespace judge
