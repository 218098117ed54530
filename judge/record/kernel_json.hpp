// A solution's kernels (ptxas), a case's kernel launches (CUPTI) and a solution's hints as JSON: one
// codec for the store's columns and for --json (which adds each launch's occupancy). Field names are
// spelled here once.
#pragma once

#include "judge/record/grade_result.hpp"

#include <nlohmann/json.hpp>

#include <vector>

namespace judge {

nlohmann::json kernels_json(const std::vector<kernel_resources>& kernels);
nlohmann::json launch_json(const judge_wire::kernel_launch& launch);
nlohmann::json hints_json(const std::vector<hint>& hints);

/// Each reads one element as the functions above write it; throws nlohmann::json::exception when a field
/// is missing or of another type (the caller names where).
kernel_resources kernel_from_json(const nlohmann::json& j);
judge_wire::kernel_launch launch_from_json(const nlohmann::json& j);
hint hint_from_json(const nlohmann::json& j);

} // namespace judge
