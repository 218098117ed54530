// The graded record as JSON: the one codec for a solution's result wherever it is written down (the
// `--json` report and the API's documents, which add words beside these facts; the queue's stored
// result; the result a Slurm job posts; the store's JSON columns; the baseline cache's timings). Every
// field is written; decoding is strict and names the missing or mistyped field, as common/wire_json.hpp
// does for the runner's messages. Fields the decoder does not know (the reports' words) are ignored.
#pragma once

#include "judge/record/grade_result.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace judge {

/// The verdict a solution compiled but not run is written under (solution_result::compiled_only).
inline constexpr const char* not_run_verdict_name = "NR";

/// {"median_ms", "min_ms", "max_ms", "noise", "precision", "samples", "discarded_throttled",
/// "host_median_ms", "sm_clock_mhz", "method", "cold_l2", "stop_reason", "warmup_calls"}; the launches
/// are the case's ("launches" in case JSON), not the timing's.
nlohmann::json timing_json(const timing_summary& t);
/// Throws std::runtime_error naming `where` and the field. A figure written as null (JSON has no NaN)
/// reads as 0.
timing_summary timing_from_json(const nlohmann::json& j, const std::string& where);

/// {"mode": "on"|"off"|"unavailable"|"not_run", "reason", "missing_layers": [{"layer", "reason"}]}.
nlohmann::json sandbox_json(const sandbox_status& s);
sandbox_status sandbox_from_json(const nlohmann::json& j, const std::string& where);

/// {"median_ms", "floor_ms", "ceiling", "work", "peak"}.
nlohmann::json implausible_json(const implausible_time& t);
implausible_time implausible_from_json(const nlohmann::json& j, const std::string& where);

/// {"name", "uuid", "cc", "sms", "sm_clock_max_mhz", "fp32_peak_gflops", "copy_gbps", "dram_peak_gbps"}.
nlohmann::json device_json(const device_info& device);

/// A solution's result: {"path", "author", "content_hash", "graded_at", "verdict" (a short name, or
/// "NR"), "message", "score", "speed_unit", "sandbox", "implausible", "kernels", "hints", "cases"}, each
/// case {"name", "hidden", "dims", "shape", "verdict", "message", "median_ms", "gflops"|"gbps",
/// "pct_of_baseline", "pct_of_peak"} (null when untimed) and, when present, "timing", "launches",
/// "baseline", "feedback", "implausible", "sanitizer", "wrong" (mismatch_json.hpp), "beyond_limits";
/// and "robustness", the robustness cases in the same form, apart from "cases"; and "cases_not_run", {"cases":
/// the names of the cases an earlier failure left unrun, "reason"}; and, when a failure's explanation was
/// planned, "sanitizer" (sanitizer/sanitizer_json.hpp's explanation_json). Left out, as a published
/// document must: the
/// problem (the document's own), the device (device_json, beside it), the compile and learner output.
nlohmann::json record_json(const solution_result& r);
/// The inverse of record_json() for what it writes (the baseline's speed follows from the percentage).
/// Throws std::runtime_error naming the field that is missing or of the wrong type.
solution_result record_from_json(const nlohmann::json& j);

} // namespace judge
