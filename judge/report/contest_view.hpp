// The contest view of a graded result: what a student sees of it on a contest server (`judge serve
// --contest`) and in `judge run --contest`. A failed hidden case keeps only its name, shape and verdict;
// the store keeps every detail (service/queue/access_policy.hpp decides who gets this view).
#pragma once

#include "judge/record/grade_result.hpp"

namespace judge {

/// `r` with what failed on a hidden case, deciding or robustness, reduced to its name, shape and verdict
/// (its message, its sanitizer findings and the explanation that plans them, its wrong output and the
/// program's output go; a sample case keeps every detail).
solution_result contest_view(solution_result r);

} // namespace judge
