// The tolerance of one case: problem.yaml's atol and rtol, widened by `tolerance.sum` for outputs that
// are float sums (docs/problem-format.md says how, and why the bound grows with the number of terms).
#pragma once

#include "judge/problem/problem.hpp"
#include "judge/problem/cases.hpp"

#include <cstdint>

namespace judge {

/// [relative] The rounding allowance of a float sum of `terms` terms: (k + 2)·2^-24 with
/// k = min(terms − 1, 64 + ⌈log2 terms⌉). For up to about 70 terms k is the worst case of any order of
/// addition (terms − 1 roundings); beyond, it is the worst case of the orders a GPU uses: runs of up
/// to 64 terms added one by one, combined pairwise. The 2 covers the rounding of the last operation
/// and of the result to float.
double sum_allowance(std::int64_t terms);

/// The largest |value| buffer `name` can hold in case `c`: from its explicit data, else from its
/// distribution (judge_data::largest_magnitude).
double largest_input_magnitude(const problem_spec& spec, const test_case& c, const std::string& name);

/// atol and rtol for case `c`: the spec's, or the case's own `tolerance` where it gives them (and without
/// the sum rule where it says `sum: false`); for `compare: exact`, 0 and 0 and `exact`. Then, with a sum
/// rule, of T terms:
/// `of: [A, B]`: atol + sum_allowance(T)·T·max|A|·max|B| (a bound of Σ|term|), without the factor T
/// when `weighted` (weights that sum to 1 times values of A: Σ|term| <= max|A|);
/// `relative: true`: rtol + sum_allowance(T) (terms of one sign: the error is relative to the sum).
tolerance case_tolerance(const problem_spec& spec, const test_case& c);

} // namespace judge
