#include "judge/problem/exact_compare.hpp"

#include "judge/problem/case_tolerance.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace judge {

namespace {

/// The first generated float buffer of `c` that may hold a fraction, with why; "" when there is none.
std::string fractional_input(const problem_spec& spec, const test_case& c) {
  for (const parameter* p : spec.buffers()) {
    if (!p->is_generated() || p->type != judge_data::element_type::float32) continue;
    if (const auto data = c.data.find(p->name); data != c.data.end()) {
      const auto fraction = std::find_if(data->second.begin(), data->second.end(),
                                         [](float x) { return !std::isfinite(x) || x != std::floor(x); });
      if (fraction != data->second.end())
        return fmt::format("its explicit data {}[{}] = {} is not a whole number", p->name,
                           fraction - data->second.begin(), *fraction);
      continue;
    }
    const auto dist = c.distributions.find(p->name);
    if (dist != c.distributions.end() && !judge_data::whole_values(dist->second))
      return fmt::format("buffer {} is filled from the {} distribution, which gives fractions", p->name,
                         judge_wire::to_string(dist->second.kind));
  }
  return "";
}

} // namespace

std::string why_not_exact(const problem_spec& spec, const test_case& c) {
  constexpr const char* fix = " (use uniform_int, constant, ramp with whole start and step, alternating or spike with "
                              "whole values, or whole-number data)";
  if (const std::string why = fractional_input(spec, c); !why.empty())
    return "an exact comparison needs whole-number inputs, but " + why + fix;
  if (!spec.tolerance.sum) return "";
  const sum_rule& rule = *spec.tolerance.sum;
  const std::int64_t terms = std::max<std::int64_t>(1, rule.terms.evaluate(c.sizes));
  double term = 1;
  std::string of;
  if (!rule.of.empty()) {
    for (const std::string& name : rule.of) term *= largest_input_magnitude(spec, c, name);
    of = fmt::format("{}", fmt::join(rule.of, "|·max|"));
  } else {
    term = 0;
    for (const parameter* p : spec.buffers())
      if (p->is_generated() && p->type == judge_data::element_type::float32)
        term = std::max(term, largest_input_magnitude(spec, c, p->name));
    of = "input";
  }
  const double bound = static_cast<double>(terms) * term;
  if (bound < exact_sum_limit) return "";
  return fmt::format("an exact comparison needs every partial sum below 2^24 = 16777216, where float sums of whole "
                     "numbers are exact, but {} terms · max|{}| = {} · {} = {:.17g} can reach it: use smaller "
                     "magnitudes or fewer terms",
                     rule.terms.text(), of, terms, term, bound);
}

} // namespace judge
