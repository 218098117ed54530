#include "judge/store/store_schema.hpp"

#include "judge/record/record_json.hpp"
#include "judge/sanitizer/sanitizer_json.hpp"
#include "judge/store/legacy_forms.hpp"
#include "judge/store/results_columns.hpp"
#include "judge/store/sql_row.hpp"
#include "judge/store/state_names.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <stdexcept>
#include <vector>

namespace judge::store {

namespace {

/// "CHECK (<column> IN ('a', 'b'))" from a list of names, so a constraint spells no name of its own.
template <std::size_t N> std::string one_of(const char* column, const std::array<const char*, N>& names) {
  std::string list;
  for (const char* name : names) list += fmt::format("{}'{}'", list.empty() ? "" : ", ", name);
  return fmt::format("CHECK ({} IN ({}))", column, list);
}

// The ladder's versions:
//   1  submissions and case_results
//   2  submissions.dram_peak_gbps, submissions.sandbox (as words)
//   3  submissions.implausible, case_results.precision and implausible
//   4  submissions.kernels and hints, case_results.launches
//   5  case_results.sanitizer
//   6  the online judge's tables (queue, accounts, Slurm jobs) join the ladder; until then each made its
//      own with CREATE TABLE IF NOT EXISTS, so a store may already hold them, whole or without later
//      columns: such a table is kept and given what it lacks
//   7  the record's facts in its codec's form: a case's timing and its baseline's as JSON (the column per
//      figure dropped), the sandbox state as JSON, the queue's result documents with the sandbox as facts
//   8  a queued submission's standing in the course (course/course_rules.hpp): the assignment it was
//      made for and how late it was; '' and 0 for every submission made before, as for one made without
//      a course
//   9  submissions.case_set (the version of the cases a result was graded on; '' before), and
//      queued_submissions.rejudge_of (the submission a rejudge copied; NULL for one a person made)
//  10  a failure's compute-sanitizer explanation kept apart, since it may come after the verdict:
//      submissions.sanitizer (the explanation; '' for none), and queued_submissions.sanitizer_state
//      (where it stands, for the GPU workers' claims) and sanitizer_worker (who runs it now). Stored
//      results whose runs explained a failure inline get the explanation those runs stand for; the queue's
//      result documents never held runs (a server did not run the sanitizer before), so they keep none
//
// A released table or column is never edited: stores in the field have it. A change is a new version.
std::vector<table_decl> declared_tables() {
  return {
      {"submissions",
       1,
       results_store::submission_decls(),
       "",
       "",
       {{"submissions_by_problem", "(problem, verdict, device_name, author)"},
        {"submissions_by_author", "(author, graded_at)"}}},
      {"case_results", 1, results_store::case_decls(), "PRIMARY KEY (submission_id, idx)", " WITHOUT ROWID", {}},
      // The durable queue (service/queue/submission_queue.hpp): files and results as JSON; state by name
      // (state_names.hpp); result_id is the submissions row its result was recorded as.
      {"queued_submissions",
       6,
       {{"id", "INTEGER PRIMARY KEY", 6},
        {"account", "TEXT NOT NULL", 6},
        {"problem", "TEXT NOT NULL", 6},
        {"files", "TEXT NOT NULL", 6},
        {"state", "TEXT NOT NULL", 6},
        {"submitted_at", "TEXT NOT NULL", 6},
        {"started_at", "TEXT NOT NULL DEFAULT ''", 6},
        {"finished_at", "TEXT NOT NULL DEFAULT ''", 6},
        {"worker", "TEXT NOT NULL DEFAULT ''", 6},
        {"gpu", "TEXT NOT NULL DEFAULT ''", 6},
        {"error", "TEXT NOT NULL DEFAULT ''", 6},
        {"result", "TEXT", 6},
        {"contest_result", "TEXT", 6},
        {"device", "TEXT", 6},
        {"result_id", "INTEGER", 6},
        {"note", "TEXT NOT NULL DEFAULT ''", 6},
        {"node", "TEXT NOT NULL DEFAULT ''", 6},
        {"assignment", "TEXT NOT NULL DEFAULT ''", 8},
        {"late_seconds", "INTEGER NOT NULL DEFAULT 0", 8},
        {"rejudge_of", "INTEGER", 9},
        {"sanitizer_state", "TEXT NOT NULL DEFAULT ''", 10},
        {"sanitizer_worker", "TEXT NOT NULL DEFAULT ''", 10}},
       "",
       "",
       {{"queued_submissions_by_state", "(state, account, id)"},
        {"queued_submissions_by_account", "(account, id)"},
        {"queued_submissions_by_sanitizer", "(sanitizer_state, id)", 10}}},
      // Per lane (compile, gpu), the turn each account was last served at: the fair claim's memory.
      {"queue_turns",
       6,
       {{"lane", "TEXT NOT NULL", 6}, {"account", "TEXT NOT NULL", 6}, {"turn", "INTEGER NOT NULL", 6}},
       "PRIMARY KEY (lane, account)",
       "",
       {}},
      // The class's accounts (service/queue/accounts.hpp): a token is kept only as its SHA-256.
      {"accounts",
       6,
       {{"id", "INTEGER PRIMARY KEY", 6},
        {"name", "TEXT NOT NULL UNIQUE", 6},
        {"role", "TEXT NOT NULL " + one_of("role", role_names), 6},
        {"token_sha256", "TEXT NOT NULL UNIQUE", 6},
        {"created_at", "TEXT NOT NULL", 6}},
       "",
       "",
       {}},
      // The Slurm backend's jobs (service/slurm/slurm_jobs.hpp) and how often each submission's job was lost.
      {"slurm_jobs",
       6,
       {{"key", "TEXT PRIMARY KEY", 6},
        {"token_sha256", "TEXT NOT NULL", 6},
        {"slurm_id", "TEXT NOT NULL DEFAULT ''", 6},
        {"submissions", "TEXT NOT NULL", 6},
        {"live", "INTEGER NOT NULL", 6},
        {"submitted_at", "TEXT NOT NULL", 6},
        {"ended_at", "TEXT NOT NULL DEFAULT ''", 6},
        {"ended_why", "TEXT NOT NULL DEFAULT ''", 6},
        {"fault", "TEXT NOT NULL DEFAULT ''", 6},
        {"fault_node", "TEXT NOT NULL DEFAULT ''", 6}},
       "",
       "",
       {}},
      {"slurm_lost", 6, {{"submission", "INTEGER PRIMARY KEY", 6}, {"times", "INTEGER NOT NULL", 6}}, "", "", {}},
  };
}

const table_decl& table_named(std::string_view name) {
  for (const table_decl& t : tables())
    if (t.name == name) return t;
  throw std::logic_error(fmt::format("the store's schema has no table '{}'", name));
}

std::set<std::string> columns_on_disk(sqlite::database& db, const std::string& table) {
  sqlite::statement st = db.prepare("SELECT name FROM pragma_table_info(?1)");
  st.bind(1, table);
  std::set<std::string> names;
  while (st.step()) names.insert(st.get_text(0));
  return names;
}

void create_index(sqlite::database& db, const table_decl& t, const index_decl& i) {
  db.exec(fmt::format("CREATE INDEX IF NOT EXISTS {} ON {} {}", i.name, t.name, i.columns));
}

/// The table as of `version`: created with its columns of that version, or, when a judge made it before
/// the ladder held it (version 6's tables), given the columns it lacks.
void create_table(sqlite::database& db, const table_decl& t, int version) {
  const std::set<std::string> present = columns_on_disk(db, t.name);
  if (present.empty()) {
    std::string sql = fmt::format("CREATE TABLE {} (\n", t.name);
    bool first = true;
    for (const column_decl& c : t.columns) {
      if (!c.at(version)) continue;
      sql += fmt::format("{}  {} {}", first ? "" : ",\n", c.name, c.declaration);
      first = false;
    }
    if (!t.constraint.empty()) sql += fmt::format(",\n  {}", t.constraint);
    db.exec(sql + fmt::format("\n){}", t.options));
  } else {
    for (const column_decl& c : t.columns)
      if (c.at(version) && !present.count(c.name))
        db.exec(fmt::format("ALTER TABLE {} ADD COLUMN {} {}", t.name, c.name, c.declaration));
  }
  for (const index_decl& i : t.indexes)
    if (i.since <= version) create_index(db, t, i);
}

// Version 7's data step: the values the dropped columns held, in the record's codec's form.
// Each step reads every row first and then writes: sqlite leaves undefined what a SELECT still stepping
// sees of rows the same connection changes meanwhile.
struct rewrite {
  std::vector<sql_value> values; ///< bound as ?1, ?2, ...
};

void run_all(sqlite::database& db, const char* update_sql, const std::vector<rewrite>& rewrites) {
  sqlite::statement update = db.prepare(update_sql);
  for (const rewrite& r : rewrites) {
    for (std::size_t k = 0; k < r.values.size(); ++k) bind_value(update, static_cast<int>(k + 1), r.values[k]);
    update.run();
    update.reset();
  }
}

void timings_to_codec(sqlite::database& db) {
  sqlite::statement cases = db.prepare(
      "SELECT submission_id, idx, median_ms, min_ms, max_ms, noise, precision, samples, discarded, host_median_ms, "
      "sm_clock_mhz, method, cold_l2, baseline_median_ms, baseline_noise FROM case_results");
  std::vector<rewrite> rewrites;
  while (cases.step()) {
    const row r(cases, db.file());
    sql_value timing = nullptr, baseline = nullptr;
    // samples, never NaN, was never NULL for a timed case: it said whether the case was timed.
    if (!r.is_null("samples")) {
      timing_summary t;
      t.median_ms = r.real("median_ms");
      t.min_ms = r.real("min_ms");
      t.max_ms = r.real("max_ms");
      t.noise = r.real("noise");
      t.precision = r.real("precision");
      t.samples = static_cast<int>(r.integer("samples"));
      t.discarded = static_cast<int>(r.integer("discarded"));
      t.host_median_ms = r.real("host_median_ms");
      t.sm_clock_mhz = r.real("sm_clock_mhz");
      t.method = r.text("method");
      t.cold_l2 = r.integer("cold_l2") != 0;
      // stop_reason and warmup_calls were never stored: "" and 0, as the columns read back.
      timing = timing_json(t).dump();
    }
    if (!r.is_null("baseline_median_ms")) {
      timing_summary t; // only the median and the noise were kept
      t.median_ms = r.real("baseline_median_ms");
      t.noise = r.real("baseline_noise");
      baseline = timing_json(t).dump();
    }
    rewrites.push_back({{timing, baseline, r.integer("submission_id"), r.integer("idx")}});
  }
  run_all(db, "UPDATE case_results SET timing = ?1, baseline_timing = ?2 WHERE submission_id = ?3 AND idx = ?4",
          rewrites);
}

void sandbox_to_codec(sqlite::database& db) {
  sqlite::statement rows = db.prepare("SELECT id, sandbox FROM submissions");
  std::vector<rewrite> rewrites;
  while (rows.step()) {
    const row r(rows, db.file());
    rewrites.push_back({{sandbox_json(sandbox_from_words(r.text("sandbox"), db.file())).dump(), r.integer("id")}});
  }
  run_all(db, "UPDATE submissions SET sandbox = ?1 WHERE id = ?2", rewrites);
}

void queue_documents_to_codec(sqlite::database& db) {
  sqlite::statement rows = db.prepare("SELECT id, result, contest_result FROM queued_submissions");
  std::vector<rewrite> rewrites;
  while (rows.step()) {
    const row r(rows, db.file());
    const auto upgraded = [&](const char* column) -> sql_value {
      if (r.is_null(column)) return nullptr;
      return upgraded_result_document(nlohmann::json::parse(r.text(column))).dump();
    };
    rewrites.push_back({{upgraded("result"), upgraded("contest_result"), r.integer("id")}});
  }
  run_all(db, "UPDATE queued_submissions SET result = ?1, contest_result = ?2 WHERE id = ?3", rewrites);
}

// Version 10's data step: a failing result whose runs explained one case gets the explanation they stand for.
void explanations_from_runs(sqlite::database& db) {
  std::map<std::int64_t, std::vector<std::pair<std::string, std::vector<sanitizer_run>>>> runs_of;
  sqlite::statement cases = db.prepare(
      "SELECT c.submission_id, c.name, c.sanitizer FROM case_results c JOIN submissions s ON "
      "s.id = c.submission_id WHERE s.verdict <> ?1 AND c.sanitizer <> '[]' ORDER BY c.submission_id, c.idx");
  cases.bind(1, short_name(verdict::accepted));
  while (cases.step()) {
    const row r(cases, db.file());
    const std::string where = fmt::format("database '{}' column sanitizer", db.file());
    runs_of[r.integer("submission_id")].emplace_back(
        r.text("name"), sanitizer_from_json(nlohmann::json::parse(r.text("sanitizer")), where));
  }
  std::vector<rewrite> rewrites;
  for (const auto& [id, cases_with_runs] : runs_of) {
    const sanitizer_explanation e = explanation_of_runs(cases_with_runs);
    if (e.state != explanation_state::none) rewrites.push_back({{explanation_json(e).dump(), id}});
  }
  run_all(db, "UPDATE submissions SET sanitizer = ?1 WHERE id = ?2", rewrites);
}

void data_step(sqlite::database& db, int version) {
  if (version == 7) {
    timings_to_codec(db);
    sandbox_to_codec(db);
    queue_documents_to_codec(db);
  }
  if (version == 10) explanations_from_runs(db);
}

} // namespace

const std::vector<table_decl>& tables() {
  static const std::vector<table_decl> all = declared_tables();
  return all;
}

std::string select_list(std::string_view table, std::initializer_list<std::string_view> except) {
  std::string names;
  for (const column_decl& c : table_named(table).columns)
    if (c.current() && std::find(except.begin(), except.end(), c.name) == except.end())
      names += (names.empty() ? "" : ", ") + c.name;
  return names;
}

void climb(sqlite::database& db, int from, int to) {
  for (int v = from + 1; v <= to; ++v) {
    for (const table_decl& t : tables()) {
      if (t.since == v) {
        create_table(db, t, v);
        continue;
      }
      if (t.since > v) continue;
      for (const column_decl& c : t.columns)
        if (c.since == v) db.exec(fmt::format("ALTER TABLE {} ADD COLUMN {} {}", t.name, c.name, c.declaration));
      for (const index_decl& i : t.indexes)
        if (i.since == v) create_index(db, t, i);
    }
    data_step(db, v);
    for (const table_decl& t : tables())
      for (const column_decl& c : t.columns)
        if (c.until == v) db.exec(fmt::format("ALTER TABLE {} DROP COLUMN {}", t.name, c.name));
  }
}

} // namespace judge::store
