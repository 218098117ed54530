#include "results_columns.hpp"

#include "kernel_json.hpp"
#include "plausibility.hpp"
#include "sanitizer_json.hpp"
#include "stats.hpp"

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

// The sandbox column keeps the words the first stores wrote: "on", "off", "unavailable: <reason>", and ""
// for a runner that never ran or a result stored before schema version 2. A stored form, not a report's
// wording: it must read back whatever reports say later. "on" alone was written before the sandbox had
// layers beyond its namespaces; since then "on" is followed by "; all layers", or by one
// "; no <layer>: <reason>" for each layer that was missing.
const std::vector<std::pair<sandbox_mode, std::string>> sandbox_words = {
    {sandbox_mode::not_run, ""},
    {sandbox_mode::on, "on"},
    {sandbox_mode::off, "off"},
    {sandbox_mode::unavailable, "unavailable: "}, // then the reason
};

const std::vector<std::pair<sandbox_layer, std::string>> layer_words = {
    {sandbox_layer::namespaces, "namespaces"},
    {sandbox_layer::pid_namespace, "pid-namespace"},
    {sandbox_layer::private_root, "private-root"},
    {sandbox_layer::cgroup, "cgroup"},
};
const std::string all_layers_word = "; all layers";
const std::string missing_word = "; no ";

std::string layer_word(sandbox_layer layer) {
  for (const auto& [l, word] : layer_words)
    if (l == layer) return word;
  throw std::logic_error("a sandbox layer without a stored word");
}

std::string stored_sandbox(const sandbox_status& s) {
  if (s.mode == sandbox_mode::on) {
    if (s.layers.all_on()) return "on" + all_layers_word;
    std::string text = "on";
    for (const missing_layer& m : s.layers.missing) text += missing_word + layer_word(m.layer) + ": " + m.reason;
    return text;
  }
  for (const auto& [mode, word] : sandbox_words)
    if (mode == s.mode) return mode == sandbox_mode::unavailable ? word + s.reason : word;
  throw std::logic_error("a sandbox mode without a stored word");
}

/// The layers after "on": "; all layers", or "; no <layer>: <reason>" repeated.
sandbox_layers layers_from_stored(const std::string& rest, const std::string& text, const std::string& file) {
  sandbox_layers layers;
  if (rest == all_layers_word) return layers;
  std::size_t at = 0;
  while (at < rest.size()) {
    bool known = false;
    for (const auto& [layer, word] : layer_words) {
      const std::string head = missing_word + word + ": ";
      if (rest.compare(at, head.size(), head) != 0) continue;
      const std::size_t begin = at + head.size();
      std::size_t end = rest.find(missing_word, begin);
      if (end == std::string::npos) end = rest.size();
      layers.set_missing(layer, rest.substr(begin, end - begin));
      at = end;
      known = true;
      break;
    }
    if (!known) throw std::runtime_error(fmt::format("database '{}' holds an unknown sandbox state '{}'", file, text));
  }
  return layers;
}

sandbox_status sandbox_from_stored(const std::string& text, const std::string& file) {
  if (text == "on") { // stored before the layers beyond the namespaces existed
    sandbox_status s{sandbox_mode::on, ""};
    for (sandbox_layer layer : all_sandbox_layers)
      if (layer != sandbox_layer::namespaces)
        s.layers.set_missing(layer, "not part of the sandbox when this was graded");
    return s;
  }
  if (text.rfind("on; ", 0) == 0) return {sandbox_mode::on, "", layers_from_stored(text.substr(2), text, file)};
  for (const auto& [mode, word] : sandbox_words) {
    if (mode == sandbox_mode::unavailable && text.compare(0, word.size(), word) == 0)
      return {mode, text.substr(word.size())};
    if (text == word) return {mode, ""};
  }
  throw std::runtime_error(fmt::format("database '{}' holds an unknown sandbox state '{}'", file, text));
}

// A case's implausible_time as a JSON object of its figures (the ceiling by ceiling_name()); NULL for a
// plausible or untimed case.
sql_value stored_implausible(const std::optional<implausible_time>& t) {
  if (!t) return nullptr;
  return nlohmann::json{{"median_ms", t->median_ms},
                        {"floor_ms", t->floor_ms},
                        {"ceiling", ceiling_name(t->ceiling)},
                        {"work", t->work},
                        {"peak", t->peak}}
      .dump();
}

std::optional<implausible_time> implausible_from_stored(const field& f) {
  if (f.is_null()) return std::nullopt;
  const auto unreadable = [&f] {
    return std::runtime_error(
        fmt::format("database '{}' holds an unreadable implausible time '{}'", f.in().file(), f.text()));
  };
  const nlohmann::json j = nlohmann::json::parse(f.text(), nullptr, false);
  if (!j.is_object()) throw unreadable();
  try {
    const std::optional<speed_ceiling> ceiling = ceiling_from_name(j.at("ceiling").get<std::string>());
    if (!ceiling) throw unreadable();
    return implausible_time{j.at("median_ms").get<double>(), j.at("floor_ms").get<double>(), *ceiling,
                            j.at("work").get<double>(), j.at("peak").get<double>()};
  } catch (const nlohmann::json::exception&) {
    throw unreadable();
  }
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

// The timing columns (median_ms ... cold_l2) are all NULL for an untimed case, and samples, never NaN, is
// never NULL for a timed one: it says whether the case was timed.
timing_summary* timing_of(const field& f, stored_case& s) {
  if (f.in().is_null("samples")) return nullptr;
  if (!s.result.timing) s.result.timing.emplace();
  return &*s.result.timing;
}

// The baseline's timing keeps only median_ms and noise; baseline_median_ms is NULL when it was not timed.
timing_summary* baseline_timing_of(const field& f, stored_case& s) {
  if (f.in().is_null("baseline_median_ms")) return nullptr;
  if (!s.result.baseline_timing) s.result.baseline_timing.emplace();
  return &*s.result.baseline_timing;
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

/// A column holding a field of the case's timing: NULL for an untimed case.
template <typename T>
column<stored_case> timing_column(const char* name, const char* declaration, int since, T timing_summary::*member) {
  return {name, declaration, since,
          [member](const stored_case& s) { return s.result.timing ? to_sql(*s.result.timing.*member) : nullptr; },
          [member](const field& f, stored_case& s) {
            if (timing_summary* t = timing_of(f, s)) t->*member = from_sql<T>(f);
          }};
}

/// A column holding a field of the baseline's timing of the case: NULL when the baseline was not timed.
column<stored_case> baseline_column(const char* name, const char* declaration, int since,
                                    double timing_summary::*member) {
  return {name, declaration, since,
          [member](const stored_case& s) {
            return s.result.baseline_timing ? to_sql(*s.result.baseline_timing.*member) : nullptr;
          },
          [member](const field& f, stored_case& s) {
            if (timing_summary* t = baseline_timing_of(f, s)) t->*member = f.real();
          }};
}

// REAL columns accept NULL because sqlite stores a NaN as NULL, and a NaN figure must not cost a learner
// their result. A column, once released, is never edited: stores in the field already have it. A new
// column is a new row with the next schema version (ALTER TABLE then needs a DEFAULT for NOT NULL);
// columns of the same version keep their order, which is the order of the table's columns on disk.
const std::vector<column<submission>> submissions_table = {
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
    // Whether the solution ran in the sandbox; '' in results stored before version 2.
    {"sandbox", "TEXT NOT NULL DEFAULT ''", 2,
     [](const submission& s) -> sql_value { return stored_sandbox(s.result.sandbox); },
     [](const field& f, submission& s) { s.result.sandbox = sandbox_from_stored(f.text(), f.in().file()); }},
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
};

const std::vector<column<stored_case>> case_results_table = {
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
    timing_column("median_ms", "REAL", 1, &timing_summary::median_ms),
    timing_column("min_ms", "REAL", 1, &timing_summary::min_ms),
    timing_column("max_ms", "REAL", 1, &timing_summary::max_ms),
    timing_column("noise", "REAL", 1, &timing_summary::noise),
    timing_column("precision", "REAL", 3, &timing_summary::precision),
    timing_column("samples", "INTEGER", 1, &timing_summary::samples),
    timing_column("discarded", "INTEGER", 1, &timing_summary::discarded),
    timing_column("host_median_ms", "REAL", 1, &timing_summary::host_median_ms),
    timing_column("sm_clock_mhz", "REAL", 1, &timing_summary::sm_clock_mhz),
    timing_column("method", "TEXT", 1, &timing_summary::method),
    timing_column("cold_l2", "INTEGER", 1, &timing_summary::cold_l2),
    result_column<stored_case>("speed", "REAL", 1, &case_result::speed),
    result_column<stored_case>("baseline_speed", "REAL", 1, &case_result::baseline_speed),
    baseline_column("baseline_median_ms", "REAL", 1, &timing_summary::median_ms),
    baseline_column("baseline_noise", "REAL", 1, &timing_summary::noise),
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
    // Read after the timing columns, which create the case's timing.
    {"launches", "TEXT NOT NULL DEFAULT '[]'", 4, [](const stored_case& s) { return stored_launches(s.result.timing); },
     [](const field& f, stored_case& s) {
       auto launches = list_from_stored<judge_wire::kernel_launch>(f, "launches", launch_from_json);
       if (s.result.timing) s.result.timing->launches = std::move(launches);
     }},
    // compute-sanitizer's runs of the case (store/sanitizer_json.hpp); '[]' when none ran and before version 5.
    {"sanitizer", "TEXT NOT NULL DEFAULT '[]'", 5,
     [](const stored_case& s) -> sql_value { return sanitizer_json(s.result.sanitizer).dump(); },
     [](const field& f, stored_case& s) {
       const nlohmann::json j = nlohmann::json::parse(f.text(), nullptr, false);
       s.result.sanitizer = sanitizer_from_json(j, fmt::format("database '{}' column sanitizer", f.in().file()));
     }},
};

/// "CREATE TABLE <table> (<the columns of version 1>[, <constraint>])<options>;"
template <typename Record>
std::string create_table(std::string_view table, const std::vector<column<Record>>& columns,
                         std::string_view constraint, std::string_view options) {
  std::string sql = fmt::format("CREATE TABLE {} (\n", table);
  bool first = true;
  for (const column<Record>& c : columns) {
    if (c.since != 1) continue;
    sql += fmt::format("{}  {} {}", first ? "" : ",\n", c.name, c.declaration);
    first = false;
  }
  if (!constraint.empty()) sql += fmt::format(",\n  {}", constraint);
  return sql + fmt::format("\n){};\n", options);
}

/// "ALTER TABLE <table> ADD COLUMN ...;" for each column that schema version `version` adds.
template <typename Record>
std::string add_columns(std::string_view table, const std::vector<column<Record>>& columns, int version) {
  std::string sql;
  for (const column<Record>& c : columns)
    if (c.since == version) sql += fmt::format("ALTER TABLE {} ADD COLUMN {} {};\n", table, c.name, c.declaration);
  return sql;
}

} // namespace

row::row(const sqlite::statement& statement, std::string file) : m_statement(statement), m_file(std::move(file)) {
  for (int k = 0; k < statement.column_count(); ++k) m_index.emplace(statement.column_name(k), k);
}

int row::index(std::string_view column) const {
  const auto it = m_index.find(column);
  if (it == m_index.end()) throw std::logic_error(fmt::format("the query did not select column '{}'", column));
  return it->second;
}

bool row::is_null(std::string_view column) const { return m_statement.is_null(index(column)); }
std::int64_t row::integer(std::string_view column) const { return m_statement.get_int(index(column)); }
double row::real(std::string_view column) const { return m_statement.get_double(index(column)); }
std::string row::text(std::string_view column) const { return m_statement.get_text(index(column)); }

const std::vector<column<stored_submission>>& submission_columns() { return submissions_table; }
const std::vector<column<stored_case>>& case_columns() { return case_results_table; }

std::string migration_sql(int version) {
  if (version == 1)
    return create_table("submissions", submissions_table, "", "") +
           "CREATE INDEX submissions_by_problem ON submissions (problem, verdict, device_name, author);\n"
           "CREATE INDEX submissions_by_author ON submissions (author, graded_at);\n" +
           create_table("case_results", case_results_table, "PRIMARY KEY (submission_id, idx)", " WITHOUT ROWID");
  return add_columns("submissions", submissions_table, version) +
         add_columns("case_results", case_results_table, version);
}

void bind_value(sqlite::statement& statement, int index, const sql_value& value) {
  std::visit(
      [&](const auto& v) {
        if constexpr (std::is_same_v<std::decay_t<decltype(v)>, std::nullptr_t>)
          statement.bind_null(index);
        else
          statement.bind(index, v);
      },
      value);
}

} // namespace judge::results_store
