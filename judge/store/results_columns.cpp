#include "results_columns.hpp"

#include "stats.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <stdexcept>

namespace judge::results_store {

namespace {

verdict verdict_from_short_name(const std::string& name, const std::string& file) {
  for (verdict v : {verdict::accepted, verdict::wrong_answer, verdict::compile_error, verdict::run_time_error,
                    verdict::time_limit_exceeded, verdict::internal_error})
    if (short_name(v) == name) return v;
  throw std::runtime_error(fmt::format("database '{}' holds an unknown verdict '{}'", file, name));
}

// The sandbox column keeps the words the first stores wrote: "on", "off", "unavailable: WHY", and "" for
// a runner that never ran or a result stored before schema version 2. A stored form, not a report's
// wording: it must read back whatever reports say later.
constexpr std::string_view unavailable_prefix = "unavailable: ";

std::string stored_sandbox(const sandbox_status& s) {
  switch (s.mode) {
  case sandbox_mode::not_run:
    return "";
  case sandbox_mode::on:
    return "on";
  case sandbox_mode::off:
    return "off";
  case sandbox_mode::unavailable:
    return std::string(unavailable_prefix) + s.reason;
  }
  return "";
}

sandbox_status sandbox_from_stored(const std::string& text, const std::string& file) {
  if (text.empty()) return {};
  if (text == "on") return {sandbox_mode::on, ""};
  if (text == "off") return {sandbox_mode::off, ""};
  if (text.compare(0, unavailable_prefix.size(), unavailable_prefix) == 0)
    return {sandbox_mode::unavailable, text.substr(unavailable_prefix.size())};
  throw std::runtime_error(fmt::format("database '{}' holds an unknown sandbox state '{}'", file, text));
}

// The clock a solution ran at, for comparing stored results; NaN (stored as NULL) when nothing was timed.
double median_sm_clock(const solution_result& r) {
  std::vector<double> clocks;
  for (const case_result& c : r.cases)
    if (c.timing) clocks.push_back(c.timing->sm_clock_mhz);
  return clocks.empty() ? std::nan("") : judge_stats::median(std::move(clocks));
}

sql_value integer(std::int64_t value) { return value; }

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

using submission = stored_submission;

// REAL columns accept NULL because sqlite stores a NaN as NULL, and a NaN figure must not cost a learner
// their result. A column, once released, is never edited: stores in the field already have it. A new
// column is a new row with the next schema version; ALTER TABLE then needs a DEFAULT for NOT NULL.
const std::vector<column<submission>> submissions_table = {
    {"id", "INTEGER PRIMARY KEY", 1, nullptr, [](const field& f, submission& s) { s.id = f.integer(); }},
    {"problem", "TEXT NOT NULL CHECK (problem <> '')", 1,
     [](const submission& s) -> sql_value { return s.result.problem; },
     [](const field& f, submission& s) { s.result.problem = f.text(); }},
    {"path", "TEXT NOT NULL", 1, [](const submission& s) -> sql_value { return s.result.path; },
     [](const field& f, submission& s) { s.result.path = f.text(); }},
    {"author", "TEXT NOT NULL CHECK (author <> '')", 1,
     [](const submission& s) -> sql_value { return s.result.author; },
     [](const field& f, submission& s) { s.result.author = f.text(); }},
    {"content_hash", "TEXT NOT NULL", 1, [](const submission& s) -> sql_value { return s.result.content_hash; },
     [](const field& f, submission& s) { s.result.content_hash = f.text(); }},
    // ISO-8601 UTC
    {"graded_at", "TEXT NOT NULL", 1, [](const submission& s) -> sql_value { return s.result.graded_at; },
     [](const field& f, submission& s) { s.result.graded_at = f.text(); }},
    {"device_name", "TEXT NOT NULL", 1, [](const submission& s) -> sql_value { return s.result.device.name; },
     [](const field& f, submission& s) { s.result.device.name = f.text(); }},
    {"device_cc", "TEXT NOT NULL", 1, [](const submission& s) -> sql_value { return s.result.device.cc; },
     [](const field& f, submission& s) { s.result.device.cc = f.text(); }},
    {"device_sms", "INTEGER NOT NULL", 1, [](const submission& s) { return integer(s.result.device.sms); },
     [](const field& f, submission& s) { s.result.device.sms = static_cast<int>(f.integer()); }},
    {"device_l2_bytes", "INTEGER NOT NULL", 1, [](const submission& s) { return integer(s.result.device.l2_bytes); },
     [](const field& f, submission& s) { s.result.device.l2_bytes = f.integer(); }},
    {"device_clock_max_mhz", "REAL", 1, [](const submission& s) -> sql_value { return s.result.device.clock_max_mhz; },
     [](const field& f, submission& s) { s.result.device.clock_max_mhz = f.real(); }},
    {"fp32_peak_gflops", "REAL", 1, [](const submission& s) -> sql_value { return s.result.device.fp32_peak_gflops; },
     [](const field& f, submission& s) { s.result.device.fp32_peak_gflops = f.real(); }},
    {"measured_bandwidth_gbps", "REAL", 1,
     [](const submission& s) -> sql_value { return s.result.device.measured_bandwidth_gbps; },
     [](const field& f, submission& s) { s.result.device.measured_bandwidth_gbps = f.real(); }},
    // Version 2: bandwidth percentages divide by the DRAM's theoretical peak; NULL in results stored before.
    {"dram_peak_gbps", "REAL", 2, [](const submission& s) -> sql_value { return s.result.device.dram_peak_gbps; },
     [](const field& f, submission& s) { s.result.device.dram_peak_gbps = f.real(); }},
    // The median over the timed cases, for queries; NULL when nothing was timed.
    {"sm_clock_mhz", "REAL", 1, [](const submission& s) -> sql_value { return median_sm_clock(s.result); }, nullptr},
    // short name: AC, WA, CE, RTE, TLE, IE
    {"verdict", "TEXT NOT NULL", 1, [](const submission& s) -> sql_value { return short_name(s.result.v); },
     [](const field& f, submission& s) { s.result.v = verdict_from_short_name(f.text(), f.in().file()); }},
    {"message", "TEXT NOT NULL", 1, [](const submission& s) -> sql_value { return s.result.message; },
     [](const field& f, submission& s) { s.result.message = f.text(); }},
    {"score", "REAL", 1, [](const submission& s) -> sql_value { return s.result.score; },
     [](const field& f, submission& s) { s.result.score = f.real(); }},
    {"speed_unit", "TEXT NOT NULL", 1, [](const submission& s) -> sql_value { return s.result.speed_unit; },
     [](const field& f, submission& s) { s.result.speed_unit = f.text(); }},
    // Version 2: whether the solution ran in the sandbox; '' in results stored before.
    {"sandbox", "TEXT NOT NULL DEFAULT ''", 2,
     [](const submission& s) -> sql_value { return stored_sandbox(s.result.sandbox); },
     [](const field& f, submission& s) { s.result.sandbox = sandbox_from_stored(f.text(), f.in().file()); }},
    {"compile_output", "TEXT NOT NULL", 1, [](const submission& s) -> sql_value { return s.result.compile_output; },
     [](const field& f, submission& s) { s.result.compile_output = f.text(); }},
    {"learner_output", "TEXT NOT NULL", 1, [](const submission& s) -> sql_value { return s.result.learner_output; },
     [](const field& f, submission& s) { s.result.learner_output = f.text(); }},
};

/// A timing column: NULL for an untimed case.
template <typename T> sql_value timed(const stored_case& s, T timing_summary::*member) {
  if (!s.result.timing) return nullptr;
  const T& value = (*s.result.timing).*member;
  if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, int>)
    return integer(value);
  else
    return value;
}

const std::vector<column<stored_case>> case_results_table = {
    {"submission_id", "INTEGER NOT NULL REFERENCES submissions (id) ON DELETE CASCADE", 1,
     [](const stored_case& s) { return integer(s.submission_id); },
     [](const field& f, stored_case& s) { s.submission_id = f.integer(); }},
    // position in the solution's case list, from 0
    {"idx", "INTEGER NOT NULL", 1, [](const stored_case& s) { return integer(s.idx); },
     [](const field& f, stored_case& s) { s.idx = f.integer(); }},
    {"name", "TEXT NOT NULL CHECK (name <> '')", 1, [](const stored_case& s) -> sql_value { return s.result.name; },
     [](const field& f, stored_case& s) { s.result.name = f.text(); }},
    {"hidden", "INTEGER NOT NULL", 1, [](const stored_case& s) { return integer(s.result.hidden); },
     [](const field& f, stored_case& s) { s.result.hidden = f.integer() != 0; }},
    {"shape", "TEXT NOT NULL", 1, [](const stored_case& s) -> sql_value { return s.result.shape; },
     [](const field& f, stored_case& s) { s.result.shape = f.text(); }},
    // JSON array of the size parameters
    {"sizes", "TEXT NOT NULL", 1,
     [](const stored_case& s) -> sql_value { return nlohmann::json(s.result.sizes).dump(); },
     [](const field& f, stored_case& s) {
       s.result.sizes = nlohmann::json::parse(f.text()).get<std::vector<std::int64_t>>();
     }},
    {"verdict", "TEXT NOT NULL", 1, [](const stored_case& s) -> sql_value { return short_name(s.result.v); },
     [](const field& f, stored_case& s) { s.result.v = verdict_from_short_name(f.text(), f.in().file()); }},
    {"message", "TEXT NOT NULL", 1, [](const stored_case& s) -> sql_value { return s.result.message; },
     [](const field& f, stored_case& s) { s.result.message = f.text(); }},
    {"median_ms", "REAL", 1, [](const stored_case& s) { return timed(s, &timing_summary::median_ms); },
     [](const field& f, stored_case& s) {
       if (timing_summary* t = timing_of(f, s)) t->median_ms = f.real();
     }},
    {"min_ms", "REAL", 1, [](const stored_case& s) { return timed(s, &timing_summary::min_ms); },
     [](const field& f, stored_case& s) {
       if (timing_summary* t = timing_of(f, s)) t->min_ms = f.real();
     }},
    {"max_ms", "REAL", 1, [](const stored_case& s) { return timed(s, &timing_summary::max_ms); },
     [](const field& f, stored_case& s) {
       if (timing_summary* t = timing_of(f, s)) t->max_ms = f.real();
     }},
    {"noise", "REAL", 1, [](const stored_case& s) { return timed(s, &timing_summary::noise); },
     [](const field& f, stored_case& s) {
       if (timing_summary* t = timing_of(f, s)) t->noise = f.real();
     }},
    {"samples", "INTEGER", 1, [](const stored_case& s) { return timed(s, &timing_summary::samples); },
     [](const field& f, stored_case& s) {
       if (timing_summary* t = timing_of(f, s)) t->samples = static_cast<int>(f.integer());
     }},
    {"discarded", "INTEGER", 1, [](const stored_case& s) { return timed(s, &timing_summary::discarded); },
     [](const field& f, stored_case& s) {
       if (timing_summary* t = timing_of(f, s)) t->discarded = static_cast<int>(f.integer());
     }},
    {"host_median_ms", "REAL", 1, [](const stored_case& s) { return timed(s, &timing_summary::host_median_ms); },
     [](const field& f, stored_case& s) {
       if (timing_summary* t = timing_of(f, s)) t->host_median_ms = f.real();
     }},
    {"sm_clock_mhz", "REAL", 1, [](const stored_case& s) { return timed(s, &timing_summary::sm_clock_mhz); },
     [](const field& f, stored_case& s) {
       if (timing_summary* t = timing_of(f, s)) t->sm_clock_mhz = f.real();
     }},
    {"method", "TEXT", 1, [](const stored_case& s) { return timed(s, &timing_summary::method); },
     [](const field& f, stored_case& s) {
       if (timing_summary* t = timing_of(f, s)) t->method = f.text();
     }},
    {"cold_l2", "INTEGER", 1, [](const stored_case& s) { return timed(s, &timing_summary::cold_l2); },
     [](const field& f, stored_case& s) {
       if (timing_summary* t = timing_of(f, s)) t->cold_l2 = f.integer() != 0;
     }},
    {"speed", "REAL", 1, [](const stored_case& s) -> sql_value { return s.result.speed; },
     [](const field& f, stored_case& s) { s.result.speed = f.real(); }},
    {"baseline_speed", "REAL", 1, [](const stored_case& s) -> sql_value { return s.result.baseline_speed; },
     [](const field& f, stored_case& s) { s.result.baseline_speed = f.real(); }},
    // NULL when the baseline was not timed
    {"baseline_median_ms", "REAL", 1,
     [](const stored_case& s) -> sql_value {
       if (!s.result.baseline_timing) return nullptr;
       return s.result.baseline_timing->median_ms;
     },
     [](const field& f, stored_case& s) {
       if (timing_summary* t = baseline_timing_of(f, s)) t->median_ms = f.real();
     }},
    {"baseline_noise", "REAL", 1,
     [](const stored_case& s) -> sql_value {
       if (!s.result.baseline_timing) return nullptr;
       return s.result.baseline_timing->noise;
     },
     [](const field& f, stored_case& s) {
       if (timing_summary* t = baseline_timing_of(f, s)) t->noise = f.real();
     }},
    {"pct_of_baseline", "REAL", 1, [](const stored_case& s) -> sql_value { return s.result.pct_of_baseline; },
     [](const field& f, stored_case& s) { s.result.pct_of_baseline = f.real(); }},
    {"pct_of_peak", "REAL", 1, [](const stored_case& s) -> sql_value { return s.result.pct_of_peak; },
     [](const field& f, stored_case& s) { s.result.pct_of_peak = f.real(); }},
    {"flops", "REAL", 1, [](const stored_case& s) -> sql_value { return s.result.flops; },
     [](const field& f, stored_case& s) { s.result.flops = f.real(); }},
    {"bytes", "REAL", 1, [](const stored_case& s) -> sql_value { return s.result.bytes; },
     [](const field& f, stored_case& s) { s.result.bytes = f.real(); }},
    {"feedback", "TEXT NOT NULL", 1, [](const stored_case& s) -> sql_value { return s.result.feedback; },
     [](const field& f, stored_case& s) { s.result.feedback = f.text(); }},
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
