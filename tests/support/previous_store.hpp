// The store's file as earlier judges made it, by hand, for the tests that open such a file: the results
// tables as the judge wrote them up to schema version 2 and what versions 3 to 5 added (user_version 5
// was the last before the online judge's tables joined the ladder), and those tables as the service made
// them then, each with CREATE TABLE IF NOT EXISTS beside its own code.
#pragma once

namespace judge::testing::previous_store {

inline const char* const hand_written_version_1 = R"sql(
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
)sql";
inline const char* const hand_written_version_2 = R"sql(
ALTER TABLE submissions ADD COLUMN dram_peak_gbps REAL;
ALTER TABLE submissions ADD COLUMN sandbox TEXT NOT NULL DEFAULT '';
)sql";
inline const char* const hand_written_version_3 = R"sql(
ALTER TABLE submissions ADD COLUMN implausible INTEGER NOT NULL DEFAULT 0;
ALTER TABLE case_results ADD COLUMN precision REAL;
ALTER TABLE case_results ADD COLUMN implausible TEXT;
)sql";
inline const char* const hand_written_version_4 = R"sql(
ALTER TABLE submissions ADD COLUMN kernels TEXT NOT NULL DEFAULT '[]';
ALTER TABLE submissions ADD COLUMN hints TEXT NOT NULL DEFAULT '[]';
ALTER TABLE case_results ADD COLUMN launches TEXT NOT NULL DEFAULT '[]';
)sql";

inline const char* const hand_written_version_5 = R"sql(
ALTER TABLE case_results ADD COLUMN sanitizer TEXT NOT NULL DEFAULT '[]';
)sql";

/// The online judge's tables as the service made them before they joined the ladder (the queue here
/// already with `note` and `node`, which it added by ALTER when missing).
inline const char* const service_tables = R"sql(
CREATE TABLE IF NOT EXISTS queued_submissions ( id INTEGER PRIMARY KEY, account TEXT NOT NULL, problem TEXT NOT NULL,
 files TEXT NOT NULL, state TEXT NOT NULL, submitted_at TEXT NOT NULL, started_at TEXT NOT NULL DEFAULT '',
 finished_at TEXT NOT NULL DEFAULT '', worker TEXT NOT NULL DEFAULT '', gpu TEXT NOT NULL DEFAULT '',
 error TEXT NOT NULL DEFAULT '', result TEXT, contest_result TEXT, device TEXT, result_id INTEGER,
 note TEXT NOT NULL DEFAULT '', node TEXT NOT NULL DEFAULT '');
CREATE INDEX IF NOT EXISTS queued_submissions_by_state ON queued_submissions (state, account, id);
CREATE INDEX IF NOT EXISTS queued_submissions_by_account ON queued_submissions (account, id);
CREATE TABLE IF NOT EXISTS queue_turns ( lane TEXT NOT NULL, account TEXT NOT NULL, turn INTEGER NOT NULL,
 PRIMARY KEY (lane, account));
CREATE TABLE IF NOT EXISTS accounts ( id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,
 role TEXT NOT NULL CHECK (role IN ('student', 'instructor')), token_sha256 TEXT NOT NULL UNIQUE,
 created_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS slurm_jobs ( key TEXT PRIMARY KEY, token_sha256 TEXT NOT NULL,
 slurm_id TEXT NOT NULL DEFAULT '', submissions TEXT NOT NULL, live INTEGER NOT NULL, submitted_at TEXT NOT NULL,
 ended_at TEXT NOT NULL DEFAULT '', ended_why TEXT NOT NULL DEFAULT '', fault TEXT NOT NULL DEFAULT '',
 fault_node TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS slurm_lost (submission INTEGER PRIMARY KEY, times INTEGER NOT NULL);
)sql";

/// Every statement above, in order, and user_version 5: the store the judge before this one left.
inline const char* const all[] = {hand_written_version_1,   hand_written_version_2, hand_written_version_3,
                                  hand_written_version_4,   hand_written_version_5, service_tables,
                                  "PRAGMA user_version = 5"};

} // namespace judge::testing::previous_store
