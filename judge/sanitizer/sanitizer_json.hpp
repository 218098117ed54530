// A case's compute-sanitizer runs as JSON, part of the record's codec (record/record_json.hpp): one codec
// for the store's column and for --json (which adds each finding's words). Names of enums are spelled here once.
#pragma once

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

nlohmann::json sanitizer_json(const std::vector<sanitizer_run>& runs);
/// The runs in `j` (an array as sanitizer_json writes it); throws std::runtime_error naming `where` and
/// the field when it is not one.
std::vector<sanitizer_run> sanitizer_from_json(const nlohmann::json& j, const std::string& where);

} // namespace judge
