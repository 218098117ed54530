#include "catch.hpp"
#include "results_db.hpp"
#include "results_fixtures.hpp"

#include <cctype>
#include <string>
#include <vector>

using namespace judge;
using judge::testing::accepted_result;
using judge_test::temp_folder;

namespace {

// The schema as the judge wrote it by hand up to schema version 2, and what each later version adds. The
// store now makes its statements from a table of columns; a store it creates must be the same as one
// these statements created.
const char* const hand_written_version_1 = R"sql(
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
const char* const hand_written_version_2 = R"sql(
ALTER TABLE submissions ADD COLUMN dram_peak_gbps REAL;
ALTER TABLE submissions ADD COLUMN sandbox TEXT NOT NULL DEFAULT '';
)sql";
const char* const hand_written_version_3 = R"sql(
ALTER TABLE submissions ADD COLUMN implausible INTEGER NOT NULL DEFAULT 0;
ALTER TABLE case_results ADD COLUMN precision REAL;
ALTER TABLE case_results ADD COLUMN implausible TEXT;
)sql";
const char* const hand_written_version_4 = R"sql(
ALTER TABLE submissions ADD COLUMN kernels TEXT NOT NULL DEFAULT '[]';
ALTER TABLE submissions ADD COLUMN hints TEXT NOT NULL DEFAULT '[]';
ALTER TABLE case_results ADD COLUMN launches TEXT NOT NULL DEFAULT '[]';
)sql";

const char* const hand_written_version_5 = R"sql(
ALTER TABLE case_results ADD COLUMN sanitizer TEXT NOT NULL DEFAULT '[]';
)sql";

/// SQL without comments, with one space for any run of white space, and none next to ( ) and ,
std::string normalised(const std::string& sql) {
  std::string out;
  bool space = false;
  for (std::size_t i = 0; i < sql.size(); ++i) {
    if (sql.compare(i, 2, "--") == 0) {
      i = sql.find('\n', i);
      if (i == std::string::npos) break;
      space = true;
      continue;
    }
    const char c = sql[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = true;
      continue;
    }
    const bool tight = c == '(' || c == ')' || c == ',' || (!out.empty() && (out.back() == '(' || out.back() == ','));
    if (space && !out.empty() && !tight) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

/// Every table's and index's CREATE statement, normalised, in name order.
std::vector<std::string> schema_of(sqlite::database& db) {
  sqlite::statement st = db.prepare("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name");
  std::vector<std::string> out;
  while (st.step()) out.push_back(normalised(st.get_text(0)));
  return out;
}

std::string stored_sandbox(results_db& db, std::int64_t id) {
  sqlite::statement st = db.connection().prepare("SELECT sandbox FROM submissions WHERE id = ?1");
  st.bind(1, id);
  REQUIRE(st.step());
  return st.get_text(0);
}

} // namespace

TEST_CASE("a new store has the schema the hand-written statements made", "[results_db]") {
  temp_folder dir;
  sqlite::database by_hand(dir / "by_hand.db");
  by_hand.exec(hand_written_version_1);
  by_hand.exec(hand_written_version_2);
  by_hand.exec(hand_written_version_3);
  by_hand.exec(hand_written_version_4);
  by_hand.exec(hand_written_version_5);
  results_db made(dir / "made.db");
  const std::vector<std::string> want = schema_of(by_hand);
  const std::vector<std::string> got = schema_of(made.connection());
  REQUIRE(want.size() == 4); // two tables, two indexes
  CHECK(got == want);
}

TEST_CASE("a store made by the hand-written statements is read and written as before", "[results_db]") {
  temp_folder dir;
  {
    sqlite::database by_hand(dir / "judge.db");
    by_hand.exec(hand_written_version_1);
    by_hand.exec(hand_written_version_2);
    by_hand.exec("PRAGMA user_version = 2");
  }
  results_db db(dir / "judge.db");
  const solution_result r = accepted_result("alice", 100);
  db.record(r);
  const auto all = db.results_for("matmul");
  REQUIRE(all.size() == 1);
  CHECK(all[0].author == "alice");
  CHECK(all[0].cases.size() == r.cases.size());
  CHECK(all[0].cases[1].timing.has_value() == r.cases[1].timing.has_value());
}

TEST_CASE("a version 3 store opens and its results read back with no kernels, launches or hints", "[results_db]") {
  temp_folder dir;
  {
    sqlite::database by_hand(dir / "judge.db");
    by_hand.exec(hand_written_version_1);
    by_hand.exec(hand_written_version_2);
    by_hand.exec(hand_written_version_3);
    by_hand.exec("INSERT INTO submissions (problem, path, author, content_hash, graded_at, device_name, device_cc, "
                 "device_sms, device_l2_bytes, verdict, message, speed_unit, compile_output, learner_output) "
                 "VALUES ('matmul', 'a.cu', 'alice', 'h', '2024-01-01T00:00:00Z', 'NVIDIA H200', '9.0', 132, 1, "
                 "'AC', '', 'GFLOPS', '', '')");
    by_hand.exec("INSERT INTO case_results (submission_id, idx, name, hidden, shape, sizes, verdict, message, "
                 "median_ms, samples, feedback) VALUES (1, 0, 'square', 1, '64x64x64', '[64,64,64]', 'AC', '', 0.5, "
                 "10, '')");
    by_hand.exec("PRAGMA user_version = 3");
  }
  results_db db(dir / "judge.db");
  const auto all = db.results_for("matmul");
  REQUIRE(all.size() == 1);
  CHECK(all[0].kernels.empty());
  CHECK(all[0].hints.empty());
  REQUIRE(all[0].cases.size() == 1);
  REQUIRE(all[0].cases[0].timing.has_value());
  CHECK(all[0].cases[0].timing->launches.empty());
}

TEST_CASE("each sandbox state is stored in the words stores have always held, and reads back", "[results_db]") {
  temp_folder dir;
  results_db db(dir / "judge.db");
  sandbox_status partly{sandbox_mode::on, ""};
  partly.layers.set_missing(sandbox_layer::cgroup, "cgroup v2 is not mounted");
  partly.layers.set_missing(sandbox_layer::private_root, "mounting /proc: Operation not permitted");
  const std::vector<std::pair<sandbox_status, std::string>> states = {
      {{sandbox_mode::not_run, ""}, ""},
      {{sandbox_mode::on, ""}, "on; all layers"},
      {partly, "on; no private-root: mounting /proc: Operation not permitted; no cgroup: cgroup v2 is not mounted"},
      {{sandbox_mode::off, ""}, "off"},
      {{sandbox_mode::unavailable, "unshare: Operation not permitted"},
       "unavailable: unshare: Operation not permitted"},
  };
  for (const auto& [state, text] : states) {
    solution_result r = accepted_result("alice", 100);
    r.sandbox = state;
    CAPTURE(text);
    CHECK(stored_sandbox(db, db.record(r)) == text);
    CHECK(db.history("alice").back().sandbox == state);
  }
}

TEST_CASE("a sandbox stored as \"on\" before it had layers reads back with those layers missing", "[results_db]") {
  temp_folder dir;
  results_db db(dir / "judge.db");
  db.record(accepted_result("alice", 100));
  db.connection().exec("UPDATE submissions SET sandbox = 'on'");
  const sandbox_status got = db.history("alice").back().sandbox;
  CHECK(got.mode == sandbox_mode::on);
  CHECK(got.layers.on(sandbox_layer::namespaces));
  CHECK_FALSE(got.layers.on(sandbox_layer::pid_namespace));
  CHECK_FALSE(got.layers.on(sandbox_layer::private_root));
  CHECK_FALSE(got.layers.on(sandbox_layer::cgroup));
}
