// --json FILE: the machine-readable record of a grading run, for a course's CI and scripts, and the
// result document the API serves: the record's codec (record/record_json.hpp) with words beside its facts.
#pragma once

#include "judge/record/grade_result.hpp"
#include "judge/grading/grading_run.hpp"
#include "judge/record/record_json.hpp"
#include "judge/problem/solution_files.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <vector>

namespace judge {

/// record_json(r) (record/record_json.hpp: the facts, which record_from_json() reads back) with the words
/// and derived figures a reader wants beside them: each launch's occupancy on the device, the implausible
/// time's and the sanitizer's words, the sandbox state's ("sandbox": {"text"}), and the not-run message.
nlohmann::json to_json(const solution_result& r);
/// `document` (to_json() of a result, or of its contest view) with the explanation of `explained` and its
/// cases' sanitizer runs, words and all, in their places: what an explanation that ran after the document
/// was stored changes of it. Cases are matched by name; nothing else changes.
nlohmann::json with_explanation(nlohmann::json document, const solution_result& explained);
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
