#include "judge/problem/call_limit.hpp"

#include <algorithm>

namespace judge {

double call_limit_seconds(const problem_spec& spec, const test_case& c) {
  const limits& l = spec.limits;
  if (!l.slowest_speed) return l.case_seconds;
  double at_slowest = l.case_seconds;
  try {
    at_slowest = static_cast<double>(spec.unit_work().evaluate(c.sizes)) / (*l.slowest_speed * 1e9);
  } catch (const size_expr_error&) {
    // Work past 64 bits: more than any limit, so the most.
  }
  return std::min(l.case_seconds, std::max(l.min_case_seconds, at_slowest));
}

} // namespace judge
