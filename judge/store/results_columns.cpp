#include "judge/store/results_columns.hpp"

#include "judge/record/kernel_json.hpp"
#include "judge/record/record_json.hpp"
#include "judge/sanitizer/sanitizer_json.hpp"
#include "common/stats.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <stdexcept>
#include <type_traits>

namespace judge::results_store {

namespace {

verdict verdict_from_short_name(const std::string& name, const std::string& file) {
  for (verdict v : {verdict::accepted, verdict::wrong_answer, verdict::compile_error, verdict::run_time_error,
                    verdict::time_limit_exceeded, verdict::internal_error})
    if (short_name(v) == name) return v;
  throw std::runtime_error(fmt::format("database '{}' holds an unknown verdict '{}'", file, name));
}

/// A JSON column written by the record's codec, parsed; a column that is not JSON is named in the error.
nlohmann::json json_of(const field& f, const char* what) {
  nlohmann::json j = nlohmann::json::parse(f.text(), nullptr, false);
  if (j.is_discarded())
    throw std::runtime_error(fmt::format("database '{}' holds unreadable {} '{}'", f.in().file(), what, f.text()));
  return j;
}

/// Where a codec's error names the column.
std::string column_where(const field& f, const char* column) {
  return fmt::format("database '{}' column {}: ", f.in().file(), column);
}

// A case's implausible_time (record/record_json.hpp); NULL for a plausible or untimed case.
sql_value stored_implausible(const std::optional<implausible_time>& t) {
  if (!t) return nullptr;
  return implausible_json(*t).dump();
}

std::optional<implausible_time> implausible_from_stored(const field& f) {
  if (f.is_null()) return std::nullopt;
  return implausible_from_json(json_of(f, "implausible time"), column_where(f, "implausible"));
}

/// A timing (record/record_json.hpp) without its launches, which have a column of their own; NULL when
/// the case (or its baseline) was not timed.
sql_value stored_timing(const std::optional<timing_summary>& t) {
  if (!t) return nullptr;
  return timing_json(*t).dump();
}

std::optional<timing_summary> timing_from_stored(const field& f, const char* column) {
  if (f.is_null()) return std::nullopt;
  return timing_from_json(json_of(f, column), column_where(f, column));
}

// A solution's explanation (sanitizer/sanitizer_json.hpp); '' when none was planned.
sql_value stored_explanation(const sanitizer_explanation& e) {
  if (e.state == explanation_state::none) return std::string();
  return explanation_json(e).dump();
}

sanitizer_explanation explanation_from_stored(const field& f) {
  if (f.text().empty()) return {};
  return explanation_from_json(json_of(f, "sanitizer explanation"),
                               fmt::format("database '{}' column sanitizer", f.in().file()));
}

// A solution's kernels (ptxas) as a JSON array of objects; '[]' in results stored before version 4.
sql_value stored_kernels(const std::vector<kernel_resources>& kernels) { return kernels_json(kernels).dump(); }

// A case's kernel launches (CUPTI) as a JSON array of objects; '[]' for an untimed case and before version 4.
sql_value stored_launches(const std::optional<timing_summary>& t) {
  nlohmann::json list = nlohmann::json::array();
  if (t)
    for (const judge_wire::kernel_launch& k : t->launches) list.push_back(launch_json(k));
  return list.dump();
}

// A solution's hints as a JSON array of {id, lesson, evidence}; '[]' before version 4.
sql_value stored_hints(const std::vector<hint>& hints) { return hints_json(hints).dump(); }

/// The JSON array in column `f`, each element read by `read`; a store's column that is not such an array
/// is named in the error.
template <typename T, typename Read> std::vector<T> list_from_stored(const field& f, const char* what, Read read) {
  const nlohmann::json list = nlohmann::json::parse(f.text(), nullptr, false);
  const auto unreadable = [&] {
    return std::runtime_error(fmt::format("database '{}' holds unreadable {} '{}'", f.in().file(), what, f.text()));
  };
  if (!list.is_array()) throw unreadable();
  std::vector<T> items;
  try {
    for (const nlohmann::json& j : list) items.push_back(read(j));
  } catch (const nlohmann::json::exception&) {
    throw unreadable();
  }
  return items;
}

// The clock a solution ran at, for comparing stored results; NaN (stored as NULL) when nothing was timed.
double median_sm_clock(const solution_result& r) {
  std::vector<double> clocks;
  for (const case_result& c : r.cases)
    if (c.timing) clocks.push_back(c.timing->sm_clock_mhz);
  return clocks.empty() ? std::nan("") : judge_stats::median(std::move(clocks));
}

template <typename T> sql_value to_sql(const T& value) {
  if constexpr (std::is_integral_v<T>)
    return static_cast<std::int64_t>(value); // bool too
  else
    return value;
}

template <typename T> T from_sql(const field& f) {
  if constexpr (std::is_same_v<T, bool>)
    return f.integer() != 0;
  else if constexpr (std::is_integral_v<T>)
    return static_cast<T>(f.integer());
  else if constexpr (std::is_same_v<T, double>)
    return f.real();
  else
    return f.text();
}

using submission = stored_submission;

/// A column holding a field of the row's result (a solution's or a case's) as it is.
template <typename Record, typename T>
column<Record> result_column(const char* name, const char* declaration, int since,
                             T decltype(Record::result)::*member) {
  return {name, declaration, since, [member](const Record& r) { return to_sql(r.result.*member); },
          [member](const field& f, Record& r) { r.result.*member = from_sql<T>(f); }};
}

/// The verdict of a solution or a case, by its short name: AC, WA, CE, RTE, TLE, IE.
template <typename Record> column<Record> verdict_column() {
  return {"verdict", "TEXT NOT NULL", 1, [](const Record& r) -> sql_value { return short_name(r.result.v); },
          [](const field& f, Record& r) { r.result.v = verdict_from_short_name(f.text(), f.in().file()); }};
}

/// A column holding a field of the device the solution ran on.
template <typename T>
column<submission> device_column(const char* name, const char* declaration, int since, T device_info::*member) {
  return {name, declaration, since, [member](const submission& s) { return to_sql(s.result.device.*member); },
          [member](const field& f, submission& s) { s.result.device.*member = from_sql<T>(f); }};
}

// REAL columns accept NULL because sqlite stores a NaN as NULL, and a NaN figure must not cost a learner
// their result. A column, once released, is never edited: stores in the field already have it. A new
// column is a new row with the next schema version (ALTER TABLE then needs a DEFAULT for NOT NULL);
// columns of the same version keep their order, which is the order of the table's columns on disk.
// Made on first use (functions below): other files' static objects read them while they start.
std::vector<column<submission>> make_submissions_table() {
  return {
      {"id", "INTEGER PRIMARY KEY", 1, nullptr, [](const field& f, submission& s) { s.id = f.integer(); }},
      result_column<submission>("problem", "TEXT NOT NULL CHECK (problem <> '')", 1, &solution_result::problem),
      result_column<submission>("path", "TEXT NOT NULL", 1, &solution_result::path),
      result_column<submission>("author", "TEXT NOT NULL CHECK (author <> '')", 1, &solution_result::author),
      result_column<submission>("content_hash", "TEXT NOT NULL", 1, &solution_result::content_hash),
      result_column<submission>("graded_at", "TEXT NOT NULL", 1, &solution_result::graded_at), // ISO-8601 UTC
      device_column("device_name", "TEXT NOT NULL", 1, &device_info::name),
      device_column("device_cc", "TEXT NOT NULL", 1, &device_info::cc),
      device_column("device_sms", "INTEGER NOT NULL", 1, &device_info::sms),
      device_column("device_l2_bytes", "INTEGER NOT NULL", 1, &device_info::l2_bytes),
      device_column("device_clock_max_mhz", "REAL", 1, &device_info::clock_max_mhz),
      device_column("fp32_peak_gflops", "REAL", 1, &device_info::fp32_peak_gflops),
      device_column("measured_bandwidth_gbps", "REAL", 1, &device_info::measured_bandwidth_gbps),
      // Bandwidth percentages divide by the DRAM's theoretical peak; NULL in results stored before version 2.
      device_column("dram_peak_gbps", "REAL", 2, &device_info::dram_peak_gbps),
      // The median over the timed cases, for queries; NULL when nothing was timed.
      {"sm_clock_mhz", "REAL", 1, [](const submission& s) -> sql_value { return median_sm_clock(s.result); }, nullptr},
      verdict_column<submission>(),
      result_column<submission>("message", "TEXT NOT NULL", 1, &solution_result::message),
      result_column<submission>("score", "REAL", 1, &solution_result::score),
      result_column<submission>("speed_unit", "TEXT NOT NULL", 1, &solution_result::speed_unit),
      // Whether the solution ran in the sandbox (record/record_json.hpp's sandbox_json); added in version 2
      // as words (store/legacy_forms.hpp), which version 7 rewrote in the codec's form.
      {"sandbox", "TEXT NOT NULL DEFAULT ''", 2,
       [](const submission& s) -> sql_value { return sandbox_json(s.result.sandbox).dump(); },
       [](const field& f, submission& s) {
         s.result.sandbox = sandbox_from_json(json_of(f, "sandbox state"), column_where(f, "sandbox"));
       }},
      result_column<submission>("compile_output", "TEXT NOT NULL", 1, &solution_result::compile_output),
      result_column<submission>("learner_output", "TEXT NOT NULL", 1, &solution_result::learner_output),
      // A timed case ran faster than the device physically can: flagged, never ranked; 0 before version 3.
      result_column<submission>("implausible", "INTEGER NOT NULL DEFAULT 0", 3, &solution_result::implausible),
      // Its kernels as ptxas compiled them, and the hints of its result (JSON arrays); '[]' before version 4.
      {"kernels", "TEXT NOT NULL DEFAULT '[]'", 4, [](const submission& s) { return stored_kernels(s.result.kernels); },
       [](const field& f, submission& s) {
         s.result.kernels = list_from_stored<kernel_resources>(f, "kernels", kernel_from_json);
       }},
      {"hints", "TEXT NOT NULL DEFAULT '[]'", 4, [](const submission& s) { return stored_hints(s.result.hints); },
       [](const field& f, submission& s) { s.result.hints = list_from_stored<hint>(f, "hints", hint_from_json); }},
      // The version of the cases it was graded on (problem/case_set_version.hpp); '' before version 9.
      result_column<submission>("case_set", "TEXT NOT NULL DEFAULT ''", 9, &solution_result::case_set),
      // compute-sanitizer's explanation of its failure (sanitizer/sanitizer_json.hpp's explanation_json),
      // which may come after the rest; '' when none was planned. Before version 10 explanations ran inline:
      // version 10 wrote the one its runs stood for.
      {"sanitizer", "TEXT NOT NULL DEFAULT ''", 10,
       [](const submission& s) { return stored_explanation(s.result.sanitizer); },
       [](const field& f, submission& s) { s.result.sanitizer = explanation_from_stored(f); }},
  };
}

std::vector<column<stored_case>> make_case_results_table() {
  return {
      {"submission_id", "INTEGER NOT NULL REFERENCES submissions (id) ON DELETE CASCADE", 1,
       [](const stored_case& s) { return to_sql(s.submission_id); },
       [](const field& f, stored_case& s) { s.submission_id = f.integer(); }},
      // The position in the solution's case list, from 0.
      {"idx", "INTEGER NOT NULL", 1, [](const stored_case& s) { return to_sql(s.idx); },
       [](const field& f, stored_case& s) { s.idx = f.integer(); }},
      result_column<stored_case>("name", "TEXT NOT NULL CHECK (name <> '')", 1, &case_result::name),
      result_column<stored_case>("hidden", "INTEGER NOT NULL", 1, &case_result::hidden),
      result_column<stored_case>("shape", "TEXT NOT NULL", 1, &case_result::shape),
      // A JSON array of the size parameters.
      {"sizes", "TEXT NOT NULL", 1,
       [](const stored_case& s) -> sql_value { return nlohmann::json(s.result.sizes).dump(); },
       [](const field& f, stored_case& s) {
         s.result.sizes = nlohmann::json::parse(f.text()).get<std::vector<std::int64_t>>();
       }},
      verdict_column<stored_case>(),
      result_column<stored_case>("message", "TEXT NOT NULL", 1, &case_result::message),
      // The timing as the record's codec writes it (JSON, its launches apart); NULL for an untimed case.
      // Until version 7 it was a column per figure (below, dropped); version 7 moved them here.
      {"timing", "TEXT", 7, [](const stored_case& s) { return stored_timing(s.result.timing); },
       [](const field& f, stored_case& s) { s.result.timing = timing_from_stored(f, "timing"); }},
      {"median_ms", "REAL", 1, nullptr, nullptr, 7},
      {"min_ms", "REAL", 1, nullptr, nullptr, 7},
      {"max_ms", "REAL", 1, nullptr, nullptr, 7},
      {"noise", "REAL", 1, nullptr, nullptr, 7},
      {"precision", "REAL", 3, nullptr, nullptr, 7},
      {"samples", "INTEGER", 1, nullptr, nullptr, 7},
      {"discarded", "INTEGER", 1, nullptr, nullptr, 7},
      {"host_median_ms", "REAL", 1, nullptr, nullptr, 7},
      {"sm_clock_mhz", "REAL", 1, nullptr, nullptr, 7},
      {"method", "TEXT", 1, nullptr, nullptr, 7},
      {"cold_l2", "INTEGER", 1, nullptr, nullptr, 7},
      result_column<stored_case>("speed", "REAL", 1, &case_result::speed),
      result_column<stored_case>("baseline_speed", "REAL", 1, &case_result::baseline_speed),
      // The baseline's timing of the case (JSON, as `timing`); NULL when it was not timed. Until version 7
      // only its median and noise were kept, in the two columns below; version 7 moved them here.
      {"baseline_timing", "TEXT", 7, [](const stored_case& s) { return stored_timing(s.result.baseline_timing); },
       [](const field& f, stored_case& s) { s.result.baseline_timing = timing_from_stored(f, "baseline_timing"); }},
      {"baseline_median_ms", "REAL", 1, nullptr, nullptr, 7},
      {"baseline_noise", "REAL", 1, nullptr, nullptr, 7},
      result_column<stored_case>("pct_of_baseline", "REAL", 1, &case_result::pct_of_baseline),
      result_column<stored_case>("pct_of_peak", "REAL", 1, &case_result::pct_of_peak),
      result_column<stored_case>("flops", "REAL", 1, &case_result::flops),
      result_column<stored_case>("bytes", "REAL", 1, &case_result::bytes),
      result_column<stored_case>("feedback", "TEXT NOT NULL", 1, &case_result::feedback),
      // The figures that made the case's time implausible (JSON: median_ms, floor_ms, ceiling, work, peak);
      // NULL when it was plausible or untimed, and in results stored before version 3.
      {"implausible", "TEXT", 3, [](const stored_case& s) { return stored_implausible(s.result.implausible); },
       [](const field& f, stored_case& s) { s.result.implausible = implausible_from_stored(f); }},
      // The learner's kernel launches of one timed sample (JSON array); '[]' untimed and before version 4.
      // Read after the timing column, which creates the case's timing.
      {"launches", "TEXT NOT NULL DEFAULT '[]'", 4,
       [](const stored_case& s) { return stored_launches(s.result.timing); },
       [](const field& f, stored_case& s) {
         auto launches = list_from_stored<judge_wire::kernel_launch>(f, "launches", launch_from_json);
         if (s.result.timing) s.result.timing->launches = std::move(launches);
       }},
      // compute-sanitizer's runs of the case (sanitizer/sanitizer_json.hpp); '[]' when none ran and before version 5.
      {"sanitizer", "TEXT NOT NULL DEFAULT '[]'", 5,
       [](const stored_case& s) -> sql_value { return sanitizer_json(s.result.sanitizer).dump(); },
       [](const field& f, stored_case& s) {
         s.result.sanitizer = sanitizer_from_json(json_of(f, "sanitizer runs"),
                                                  fmt::format("database '{}' column sanitizer", f.in().file()));
       }},
  };
}

template <typename Record> std::vector<store::column_decl> decls(const std::vector<column<Record>>& columns) {
  std::vector<store::column_decl> out;
  for (const column<Record>& c : columns) out.push_back({c.name, c.declaration, c.since, c.until});
  return out;
}

} // namespace

const std::vector<column<stored_submission>>& submission_columns() {
  static const std::vector<column<stored_submission>> table = make_submissions_table();
  return table;
}

const std::vector<column<stored_case>>& case_columns() {
  static const std::vector<column<stored_case>> table = make_case_results_table();
  return table;
}

std::vector<store::column_decl> submission_decls() { return decls(submission_columns()); }
std::vector<store::column_decl> case_decls() { return decls(case_columns()); }

} // namespace judge::results_store
