// --json FILE: the machine-readable record of a grading run, for a course's CI and scripts.
#pragma once

#include "grade_result.hpp"
#include "grading_run.hpp"
#include "solution_files.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <vector>

namespace judge {

nlohmann::json to_json(const solution_result& r);
/// The inverse of to_json(), for a result that came back from a server (`judge submit`, the web pages):
/// what to_json() writes comes back, except what it leaves out (problem, device, compile and learner
/// output) and the sandbox layers behind "on, without ..." (the mode stays). Throws std::runtime_error
/// naming the field that is missing or of the wrong type.
solution_result result_from_json(const nlohmann::json& j);
/// {"name", "uuid", "cc", "sms", "sm_clock_max_mhz", "fp32_peak_gflops", "copy_gbps", "dram_peak_gbps"}: the GPU
/// a run graded on (run_to_json's "device"; the online judge's submissions).
nlohmann::json device_to_json(const device_info& device);
/// {"problem", "device": {...}, "solutions": [...], "skipped": [{"path", "reason"}], "not_graded": [paths]}
/// ("skipped": entries of a class folder that are not solutions; "not_graded": left by an interrupt).
nlohmann::json run_to_json(const std::string& problem, const device_info& device,
                           const std::vector<solution_result>& results, const std::vector<skipped_entry>& skipped = {},
                           const std::vector<std::string>& not_graded = {});
/// What a run adds to run_to_json's document: {"baseline": {"label", "timed_at" (UTC), "from_cache", "error"},
/// "phases": [{"phase", "seconds"}]} (grading_run.hpp says what each phase holds).
nlohmann::json run_facts_json(const run_outcome& outcome);
/// Writes atomically (temporary file, then rename); throws std::runtime_error naming the path.
void write_json_file(const std::filesystem::path& path, const nlohmann::json& document);

} // namespace judge
