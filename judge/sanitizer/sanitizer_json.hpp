// A case's compute-sanitizer runs, and a solution's explanation, as JSON, part of the record's codec
// (record/record_json.hpp): one codec for the store's columns, the queue's documents and --json (which adds
// each finding's words). Names of enums are spelled here once.
#pragma once

#include "judge/sanitizer/sanitizer_explanation.hpp"
#include "judge/sanitizer/sanitizer_run.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace judge {

const char* state_name(sanitizer_state state);
const char* kind_name(sanitizer_error_kind kind);
const char* space_name(memory_space space);
const char* access_name(access_kind access);
const char* relation_name(buffer_relation relation);
/// "none", "pending", "done", "over_budget", "failed": as the API, the reports and the queue's column write it.
const char* explanation_state_name(explanation_state state);
/// The state named `name`; throws std::runtime_error naming `where` for any other name.
explanation_state explanation_state_from_name(const std::string& name, const std::string& where);

nlohmann::json sanitizer_json(const std::vector<sanitizer_run>& runs);
/// The runs in `j` (an array as sanitizer_json writes it); throws std::runtime_error naming `where` and
/// the field when it is not one.
std::vector<sanitizer_run> sanitizer_from_json(const nlohmann::json& j, const std::string& where);

/// {"state", "case", "check", "tools", "seconds_per_tool", "detail"}.
nlohmann::json explanation_json(const sanitizer_explanation& e);
/// The explanation in `j` (as explanation_json writes it); throws std::runtime_error naming `where` and the
/// field when it is not one.
sanitizer_explanation explanation_from_json(const nlohmann::json& j, const std::string& where);

} // namespace judge
