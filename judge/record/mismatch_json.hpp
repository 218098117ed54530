// The wrong output that decided a case (record/grade_result.hpp's case_result::wrong) as JSON: one codec
// for the graded record, and so for --json, the queue's stored result and a Slurm job's post.
#pragma once

#include "judge/run/runner_facts.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace judge {

/// {"buffer", "count", "total", "first_index", "first_coords", "expected" (null when not finite), "got"
/// (its exact text: "0.123456791", "nan", "-inf"), "against", "allowed", "exact", "leetgpu" ({"atol",
/// "rtol", "outside"} or null)}.
nlohmann::json mismatch_json(const mismatch& m);
/// The inverse of mismatch_json(); throws std::runtime_error naming `where` and the field.
mismatch mismatch_from_json(const nlohmann::json& j, const std::string& where);

} // namespace judge
