#include "judge/problem/case_tolerance.hpp"

#include <algorithm>
#include <cmath>

namespace judge {

double sum_allowance(std::int64_t terms) {
  if (terms <= 1) return 2.0 * std::ldexp(1.0, -24);
  const auto ceil_log2 = static_cast<std::int64_t>(std::ceil(std::log2(static_cast<double>(terms))));
  const std::int64_t roundings = std::min<std::int64_t>(terms - 1, 64 + ceil_log2);
  return static_cast<double>(roundings + 2) * std::ldexp(1.0, -24);
}

double largest_input_magnitude(const problem_spec& spec, const test_case& c, const std::string& name) {
  const auto p =
      std::find_if(spec.signature.begin(), spec.signature.end(), [&](const parameter& q) { return q.name == name; });
  if (const auto data = c.data.find(name); data != c.data.end()) {
    double largest = 0;
    for (const float word : data->second)
      largest = std::max(largest, p != spec.signature.end() && p->type == judge_data::element_type::int32
                                      ? std::fabs(static_cast<double>(judge_data::int_of_word(word)))
                                      : std::fabs(static_cast<double>(word)));
    return largest;
  }
  const auto counts = buffer_counts(spec, c);
  const auto count = counts.find(name);
  const auto dist = c.distributions.find(name);
  if (dist == c.distributions.end()) return 0;
  return judge_data::largest_magnitude(dist->second,
                                       count == counts.end() ? 0 : static_cast<std::uint64_t>(count->second));
}

tolerance case_tolerance(const problem_spec& spec, const test_case& c) {
  tolerance t = spec.tolerance;
  if (c.compare == comparison::exact) {
    t.atol = t.rtol = 0;
    t.sum.reset();
    t.exact = true;
    return t;
  }
  if (c.tolerance) {
    t.atol = c.tolerance->atol.value_or(t.atol);
    t.rtol = c.tolerance->rtol.value_or(t.rtol);
    if (!c.tolerance->sum) t.sum.reset();
  }
  if (!t.sum) return t;
  const sum_rule& rule = *t.sum;
  const std::int64_t terms = std::max<std::int64_t>(1, rule.terms.evaluate(c.sizes));
  const double allowance = sum_allowance(terms);
  if (!rule.of.empty()) {
    double term = 1;
    for (const std::string& name : rule.of) term *= largest_input_magnitude(spec, c, name);
    t.atol += allowance * (rule.weighted ? 1.0 : static_cast<double>(terms)) * term;
  }
  if (rule.relative) t.rtol += allowance;
  return t;
}

} // namespace judge
