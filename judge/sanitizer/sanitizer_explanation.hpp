// compute-sanitizer's explanation of a solution's failure, as the record keeps it beside the case's runs:
// what is planned (the failing case, the checked call, the tools), where it stands, and its bound. The
// explanation runs after the verdict is published (on a server, when its GPU has nothing to grade), so a
// result can be complete while its explanation is still pending.
#pragma once

#include "judge/sanitizer/sanitizer_run.hpp"

#include <string>
#include <vector>

namespace judge {

/// Where a solution's explanation stands.
enum class explanation_state {
  none,        ///< nothing to explain: accepted, a failure no tool explains, or --sanitize's runs of every case
  pending,     ///< planned and not yet run: the verdict is out, the explanation follows
  done,        ///< its tools ran to their end; the case's runs hold what they found
  over_budget, ///< a tool's run was stopped at its bound (`seconds_per_tool`); what it printed before is kept
  failed,      ///< it could not run or check the case (`detail` says why: no compute-sanitizer, no GPU, ...)
};

struct sanitizer_explanation {
  explanation_state state = explanation_state::none;
  std::string case_name;             ///< the first failing case its tools explain
  int check = 0;                     ///< which checked call of that case: the same inputs as the call that failed
  std::vector<sanitizer_tool> tools; ///< in the order they run
  double seconds_per_tool = 0;       ///< [s] the bound on each tool's run (sanitize.hpp's sanitizer_seconds)
  std::string detail;                ///< failed: why

  bool operator==(const sanitizer_explanation& o) const {
    return state == o.state && case_name == o.case_name && check == o.check && tools == o.tools &&
           seconds_per_tool == o.seconds_per_tool && detail == o.detail;
  }
};

/// The state the runs of an explanation leave: over_budget when a run was stopped at its bound, failed
/// when none of them checked the case (the tool missing or failing), else done.
explanation_state state_after(const std::vector<sanitizer_run>& runs);

/// The explanation a stored result's runs stand for, for results graded before explanations were kept
/// apart (they ran inline): the one case holding runs explained, in the state its runs leave. None when
/// no case or more than one holds runs (--sanitize ran every case: nothing was explained apart).
sanitizer_explanation explanation_of_runs(const std::vector<std::pair<std::string, std::vector<sanitizer_run>>>& cases);

} // namespace judge
