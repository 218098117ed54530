#include "judge/report/contest_view.hpp"

#include "judge/problem/verdicts.hpp"

namespace judge {

solution_result contest_view(solution_result r) {
  for (case_result& c : r.cases) {
    if (!c.hidden || c.v == verdict::accepted) continue;
    c.message = "details of hidden cases are not shown";
    c.sanitizer.clear(); // its threads, blocks and addresses are details of the hidden case
    c.wrong.reset();     // its expected value is the hidden data's
    if (r.v == c.v && r.message.rfind("case " + c.name + " ", 0) == 0)
      r.message = "case " + c.name + " (" + c.shape + ", hidden): " + short_name(c.v);
    // Its findings will not be shown, so there is nothing to wait for either.
    if (r.sanitizer.case_name == c.name) r.sanitizer = {};
  }
  for (case_result& c : r.robustness) {
    if (!c.hidden || c.v == verdict::accepted) continue;
    c.message = "details of hidden cases are not shown";
    c.sanitizer.clear();
    c.wrong.reset();
  }
  r.learner_output.clear(); // it may print what the hidden data was
  return r;
}

} // namespace judge
