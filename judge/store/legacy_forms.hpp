// The forms earlier versions of the store held a record's facts in, read only by the schema ladder's
// data step for version 7 (store_schema.cpp), which rewrites them in the record's codec
// (record/record_json.hpp). Frozen: they describe what files in the field hold, never what is written now.
#pragma once

#include "judge/record/grade_result.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace judge::store {

/// submissions.sandbox before version 7: "on; all layers", "on" then "; no <layer>: <reason>" for each
/// missing layer, "on" alone (before the layers beyond the namespaces existed), "off",
/// "unavailable: <reason>", or "". Throws std::runtime_error naming `file` for anything else.
sandbox_status sandbox_from_words(const std::string& text, const std::string& file);

/// A result document the queue kept before version 7 (queued_submissions.result, contest_result), made
/// over into what record_from_json() reads: its "sandbox" was the reports' words ("on", "on, without
/// cgroup limits (why), ...", "off", "unavailable: why", ""), which become the state as facts with the
/// words beside them; lists written only since a later judge ("kernels", "hints", a timed case's
/// "launches") are added empty where missing. A document already in the codec's form is returned as it is.
nlohmann::json upgraded_result_document(nlohmann::json document);

} // namespace judge::store
