#include "results_db.hpp"

#include "stats.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string_view>
#include <thread>

namespace judge {

namespace {

// Migration k (counting from 1) takes a database from schema version k-1 to k. Append new migrations;
// never edit a released one, since stores in the field have already run it. REAL columns accept NULL
// because sqlite stores a NaN as NULL, and a NaN figure must not cost a learner their result.
const std::array<const char*, 2> migrations = {
    // 1: submissions and their cases.
    R"sql(
CREATE TABLE submissions (
  id                      INTEGER PRIMARY KEY,
  problem                 TEXT NOT NULL CHECK (problem <> ''),
  path                    TEXT NOT NULL,
  author                  TEXT NOT NULL CHECK (author <> ''),
  content_hash            TEXT NOT NULL,
  graded_at               TEXT NOT NULL,  -- ISO-8601 UTC
  device_name             TEXT NOT NULL,
  device_cc               TEXT NOT NULL,
  device_sms              INTEGER NOT NULL,
  device_l2_bytes         INTEGER NOT NULL,
  device_clock_max_mhz    REAL,
  fp32_peak_gflops        REAL,
  measured_bandwidth_gbps REAL,
  sm_clock_mhz            REAL,           -- median over the timed cases; NULL when nothing was timed
  verdict                 TEXT NOT NULL,  -- short name: AC, WA, CE, RTE, TLE, IE
  message                 TEXT NOT NULL,
  score                   REAL,
  speed_unit              TEXT NOT NULL,
  compile_output          TEXT NOT NULL,
  learner_output          TEXT NOT NULL
);
CREATE INDEX submissions_by_problem ON submissions (problem, verdict, device_name, author);
CREATE INDEX submissions_by_author ON submissions (author, graded_at);

CREATE TABLE case_results (
  submission_id      INTEGER NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
  idx                INTEGER NOT NULL,  -- position in the solution's case list, from 0
  name               TEXT NOT NULL CHECK (name <> ''),
  hidden             INTEGER NOT NULL,
  shape              TEXT NOT NULL,
  sizes              TEXT NOT NULL,     -- JSON array of the size parameters
  verdict            TEXT NOT NULL,
  message            TEXT NOT NULL,
  median_ms          REAL,              -- this and the timing columns up to cold_l2: NULL when untimed
  min_ms             REAL,
  max_ms             REAL,
  noise              REAL,
  samples            INTEGER,
  discarded          INTEGER,
  host_median_ms     REAL,
  sm_clock_mhz       REAL,
  method             TEXT,
  cold_l2            INTEGER,
  speed              REAL,
  baseline_speed     REAL,
  baseline_median_ms REAL,              -- NULL when the baseline was not timed
  baseline_noise     REAL,
  pct_of_baseline    REAL,
  pct_of_peak        REAL,
  flops              REAL,
  bytes              REAL,
  feedback           TEXT NOT NULL,
  PRIMARY KEY (submission_id, idx)
) WITHOUT ROWID;
)sql",
    // 2: the DRAM's theoretical peak (bandwidth percentages divide by it) and whether the solution ran in
    // the sandbox. Results stored before have NULL and '' here.
    R"sql(
ALTER TABLE submissions ADD COLUMN dram_peak_gbps REAL;
ALTER TABLE submissions ADD COLUMN sandbox TEXT NOT NULL DEFAULT '';
)sql",
};

constexpr const char* submission_columns =
    "id, problem, path, author, content_hash, graded_at, device_name, device_cc, device_sms, device_l2_bytes, "
    "device_clock_max_mhz, fp32_peak_gflops, measured_bandwidth_gbps, dram_peak_gbps, verdict, message, score, "
    "speed_unit, sandbox, compile_output, learner_output";

constexpr const char* case_columns =
    "name, hidden, shape, sizes, verdict, message, median_ms, min_ms, max_ms, noise, samples, discarded, "
    "host_median_ms, sm_clock_mhz, method, cold_l2, speed, baseline_speed, baseline_median_ms, baseline_noise, "
    "pct_of_baseline, pct_of_peak, flops, bytes, feedback";

verdict verdict_from_short_name(const std::string& name, const std::string& file) {
  for (verdict v : {verdict::accepted, verdict::wrong_answer, verdict::compile_error, verdict::run_time_error,
                    verdict::time_limit_exceeded, verdict::internal_error})
    if (short_name(v) == name) return v;
  throw std::runtime_error(fmt::format("database '{}' holds an unknown verdict '{}'", file, name));
}

// The clock a solution ran at, for comparing stored results; NaN (stored as NULL) when nothing was timed.
double median_sm_clock(const solution_result& r) {
  std::vector<double> clocks;
  for (const case_result& c : r.cases)
    if (c.timing) clocks.push_back(c.timing->sm_clock_mhz);
  return clocks.empty() ? std::nan("") : judge_stats::median(std::move(clocks));
}

/// Binds a statement's parameters 1, 2, 3, ... in the order values are given.
class binder {
public:
  explicit binder(sqlite::statement& st) : m_st(st) {}
  template <typename T> binder& operator<<(const T& value) {
    m_st.bind(m_next++, value);
    return *this;
  }
  binder& operator<<(std::nullptr_t) {
    m_st.bind_null(m_next++);
    return *this;
  }
  binder& operator<<(bool value) { return *this << int{value}; }

private:
  sqlite::statement& m_st;
  int m_next = 1;
};

// Columns median_ms … cold_l2 of case_results: all NULL for an untimed case.
constexpr int timing_column_count = 10;

/// "?1, ?2, ..., ?n" for the n names in `columns` (a comma-separated list).
std::string placeholders(std::string_view columns) {
  const auto n = std::count(columns.begin(), columns.end(), ',') + 1;
  std::string out;
  for (long k = 1; k <= n; ++k) out += fmt::format("{}?{}", k > 1 ? ", " : "", k);
  return out;
}

void insert_case(sqlite::statement& st, std::int64_t submission_id, int idx, const case_result& c) {
  binder b(st);
  b << submission_id << idx << c.name << c.hidden << c.shape << nlohmann::json(c.sizes).dump() << short_name(c.v)
    << c.message;
  if (c.timing) {
    const timing_summary& t = *c.timing;
    b << t.median_ms << t.min_ms << t.max_ms << t.noise << t.samples << t.discarded << t.host_median_ms
      << t.sm_clock_mhz << t.method << t.cold_l2;
  } else {
    for (int k = 0; k < timing_column_count; ++k) b << nullptr;
  }
  b << c.speed << c.baseline_speed;
  if (c.baseline_timing)
    b << c.baseline_timing->median_ms << c.baseline_timing->noise;
  else
    b << nullptr << nullptr;
  b << c.pct_of_baseline << c.pct_of_peak << c.flops << c.bytes << c.feedback;
  st.run();
  st.reset();
}

case_result read_case(const sqlite::statement& st, const std::string& file) {
  case_result c;
  int i = 0;
  c.name = st.get_text(i++);
  c.hidden = st.get_int(i++) != 0;
  c.shape = st.get_text(i++);
  c.sizes = nlohmann::json::parse(st.get_text(i++)).get<std::vector<std::int64_t>>();
  c.v = verdict_from_short_name(st.get_text(i++), file);
  c.message = st.get_text(i++);
  if (!st.is_null(i + 4)) { // samples: never NaN, so never NULL for a timed case
    timing_summary t;
    t.median_ms = st.get_double(i);
    t.min_ms = st.get_double(i + 1);
    t.max_ms = st.get_double(i + 2);
    t.noise = st.get_double(i + 3);
    t.samples = static_cast<int>(st.get_int(i + 4));
    t.discarded = static_cast<int>(st.get_int(i + 5));
    t.host_median_ms = st.get_double(i + 6);
    t.sm_clock_mhz = st.get_double(i + 7);
    t.method = st.get_text(i + 8);
    t.cold_l2 = st.get_int(i + 9) != 0;
    c.timing = t;
  }
  i += timing_column_count;
  c.speed = st.get_double(i++);
  c.baseline_speed = st.get_double(i++);
  if (!st.is_null(i)) {
    timing_summary t;
    t.median_ms = st.get_double(i);
    t.noise = st.get_double(i + 1);
    c.baseline_timing = t;
  }
  i += 2;
  c.pct_of_baseline = st.get_double(i++);
  c.pct_of_peak = st.get_double(i++);
  c.flops = st.get_double(i++);
  c.bytes = st.get_double(i++);
  c.feedback = st.get_text(i++);
  return c;
}

sqlite::database open_in_folder(const std::filesystem::path& path) {
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  return sqlite::database(path);
}

constexpr auto busy_timeout = std::chrono::seconds(10);

// Switching a new file to WAL takes a moment of exclusive access, and sqlite answers SQLITE_BUSY at once,
// without waiting, when another judge is opening the same new file: retry for as long as the busy timeout.
void enable_wal(sqlite::database& db) {
  const auto deadline = std::chrono::steady_clock::now() + busy_timeout;
  for (;;) {
    try {
      db.exec("PRAGMA journal_mode = WAL");
      return;
    } catch (const sqlite::error& e) {
      if (!e.is_busy() || std::chrono::steady_clock::now() > deadline) throw;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

int user_version(sqlite::database& db) {
  sqlite::statement st = db.prepare("PRAGMA user_version");
  st.step();
  return static_cast<int>(st.get_int(0));
}

} // namespace

int results_db::schema_version() { return static_cast<int>(migrations.size()); }

results_db::results_db(const std::filesystem::path& path) : m_db(open_in_folder(path)) {
  // The timeout first: switching to WAL and migrating both wait for other judges opening the same file.
  m_db.exec(fmt::format("PRAGMA busy_timeout = {}",
                        std::chrono::duration_cast<std::chrono::milliseconds>(busy_timeout).count()));
  // sqlite opens any file lazily; the first read of the header says whether it is a database at all.
  try {
    user_version(m_db);
  } catch (const sqlite::error& e) {
    if (!e.is_not_a_database()) throw;
    throw store_error(fmt::format("'{}' is not a results database (sqlite: file is not a database); it was left "
                                  "as it is: pass another --db, or move it aside",
                                  path.string()));
  }
  // WAL lets readers (a leaderboard) run while a judge writes, and a killed writer leaves only an
  // uncommitted tail that the next open discards.
  enable_wal(m_db);
  // With WAL, NORMAL loses no committed transaction when a process dies; only a power cut may lose the
  // last few, and a grade can be rerun.
  m_db.exec("PRAGMA synchronous = NORMAL");
  m_db.exec("PRAGMA foreign_keys = ON");
  migrate();
}

void results_db::migrate() {
  auto refuse_newer = [&](int version) {
    if (version > schema_version())
      throw store_error(fmt::format("database '{}' has schema version {}, newer than this judge's {}: "
                                           "update the judge, or pass another --db",
                                           m_db.file(), version, schema_version()));
  };
  // A store already current needs no write lock: a leaderboard reader then never waits for a writer.
  int version = user_version(m_db);
  refuse_newer(version);
  if (version == schema_version()) return;
  // Read again inside the write transaction, so two judges opening a new file migrate it once.
  sqlite::transaction tx(m_db);
  version = user_version(m_db);
  refuse_newer(version);
  if (version == schema_version()) return; // the other judge migrated it meanwhile
  for (int v = version; v < schema_version(); ++v) m_db.exec(migrations[static_cast<std::size_t>(v)]);
  m_db.exec(fmt::format("PRAGMA user_version = {}", schema_version()));
  tx.commit();
}

std::int64_t results_db::record(const solution_result& r) {
  sqlite::transaction tx(m_db);
  constexpr std::string_view inserted =
      "problem, path, author, content_hash, graded_at, device_name, device_cc, device_sms, device_l2_bytes, "
      "device_clock_max_mhz, fp32_peak_gflops, measured_bandwidth_gbps, dram_peak_gbps, sm_clock_mhz, verdict, "
      "message, score, speed_unit, sandbox, compile_output, learner_output";
  sqlite::statement submission = m_db.prepare(
      fmt::format("INSERT INTO submissions ({}) VALUES ({})", inserted, placeholders(inserted)));
  binder(submission) << r.problem << r.path << r.author << r.content_hash << r.graded_at << r.device.name
                     << r.device.cc << r.device.sms << r.device.l2_bytes << r.device.clock_max_mhz
                     << r.device.fp32_peak_gflops << r.device.measured_bandwidth_gbps << r.device.dram_peak_gbps
                     << median_sm_clock(r) << short_name(r.v) << r.message << r.score << r.speed_unit << r.sandbox
                     << r.compile_output << r.learner_output;
  submission.run();
  const std::int64_t id = m_db.last_insert_rowid();

  sqlite::statement case_insert = m_db.prepare(
      fmt::format("INSERT INTO case_results (submission_id, idx, {0}) VALUES ({1})", case_columns,
                  placeholders(std::string("submission_id, idx, ") + case_columns)));
  for (std::size_t k = 0; k < r.cases.size(); ++k) insert_case(case_insert, id, static_cast<int>(k), r.cases[k]);
  tx.commit();
  return id;
}

std::vector<solution_result> results_db::load(sqlite::statement& submissions) {
  std::vector<solution_result> out;
  std::vector<std::int64_t> ids;
  while (submissions.step()) {
    solution_result r;
    int i = 0;
    ids.push_back(submissions.get_int(i++));
    r.problem = submissions.get_text(i++);
    r.path = submissions.get_text(i++);
    r.author = submissions.get_text(i++);
    r.content_hash = submissions.get_text(i++);
    r.graded_at = submissions.get_text(i++);
    r.device.name = submissions.get_text(i++);
    r.device.cc = submissions.get_text(i++);
    r.device.sms = static_cast<int>(submissions.get_int(i++));
    r.device.l2_bytes = submissions.get_int(i++);
    r.device.clock_max_mhz = submissions.get_double(i++);
    r.device.fp32_peak_gflops = submissions.get_double(i++);
    r.device.measured_bandwidth_gbps = submissions.get_double(i++);
    r.device.dram_peak_gbps = submissions.get_double(i++);
    r.v = verdict_from_short_name(submissions.get_text(i++), m_db.file());
    r.message = submissions.get_text(i++);
    r.score = submissions.get_double(i++);
    r.speed_unit = submissions.get_text(i++);
    r.sandbox = submissions.get_text(i++);
    r.compile_output = submissions.get_text(i++);
    r.learner_output = submissions.get_text(i++);
    out.push_back(std::move(r));
  }
  sqlite::statement cases = m_db.prepare(
      fmt::format("SELECT {} FROM case_results WHERE submission_id = ?1 ORDER BY idx", case_columns));
  for (std::size_t k = 0; k < out.size(); ++k) {
    cases.bind(1, ids[k]);
    while (cases.step()) out[k].cases.push_back(read_case(cases, m_db.file()));
    cases.reset();
  }
  return out;
}

std::vector<solution_result> results_db::results_for(const std::string& problem) {
  sqlite::statement st = m_db.prepare(fmt::format(
      "SELECT {} FROM submissions WHERE problem = ?1 ORDER BY graded_at, id", submission_columns));
  st.bind(1, problem);
  return load(st);
}

std::vector<solution_result> results_db::best_accepted(const std::string& problem) {
  sqlite::statement st = m_db.prepare(fmt::format(
      "SELECT {0} FROM (SELECT *, row_number() OVER (PARTITION BY device_name, author "
      "                                              ORDER BY score DESC, graded_at, id) AS pick "
      "                 FROM submissions WHERE problem = ?1 AND verdict = ?2) "
      "WHERE pick = 1 ORDER BY device_name, score DESC, graded_at, id",
      submission_columns));
  st.bind(1, problem).bind(2, short_name(verdict::accepted));
  return load(st);
}

std::vector<solution_result> results_db::history(const std::string& author) {
  sqlite::statement st = m_db.prepare(fmt::format(
      "SELECT {} FROM submissions WHERE author = ?1 ORDER BY graded_at, id", submission_columns));
  st.bind(1, author);
  return load(st);
}

} // namespace judge
