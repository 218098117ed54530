// --json FILE: the machine-readable record of a grading run, for a course's CI and scripts.
#pragma once

#include "grade_result.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <vector>

namespace judge {

nlohmann::json to_json(const solution_result& r);
/// {"problem", "device": {...}, "solutions": [...]}
nlohmann::json run_to_json(const std::string& problem, const device_info& device,
                           const std::vector<solution_result>& results);
/// Writes atomically (temporary file, then rename); throws std::runtime_error naming the path.
void write_json_file(const std::filesystem::path& path, const nlohmann::json& document);

} // namespace judge
