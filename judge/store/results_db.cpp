#include "judge/store/results_db.hpp"

#include "judge/store/results_columns.hpp"
#include "judge/store/store_schema.hpp"

#include <fmt/format.h>

#include <chrono>
#include <stdexcept>
#include <string_view>
#include <thread>

namespace judge {

using namespace results_store;

namespace {

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

int results_db::schema_version() { return store::current_version; }

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
  store::climb(m_db, version);
  m_db.exec(fmt::format("PRAGMA user_version = {}", schema_version()));
  tx.commit();
}

std::int64_t results_db::record(const solution_result& r) {
  sqlite::transaction tx(m_db);
  const std::int64_t id = record_within(tx, r);
  tx.commit();
  return id;
}

std::int64_t results_db::record_within(sqlite::transaction&, const solution_result& r) {
  sqlite::statement insert_submission = m_db.prepare(insert_sql("submissions", submission_columns()));
  insert(insert_submission, submission_columns(), stored_submission{0, r});
  const std::int64_t id = m_db.last_insert_rowid();

  sqlite::statement insert_case = m_db.prepare(insert_sql("case_results", case_columns()));
  for (std::size_t k = 0; k < r.cases.size(); ++k)
    insert(insert_case, case_columns(), stored_case{id, static_cast<std::int64_t>(k), r.cases[k]});
  return id;
}

void results_db::record_explanation_within(sqlite::transaction&, std::int64_t id, const solution_result& r) {
  // The columns' own writers: the explanation and the runs are written as record() writes them.
  const auto writer_of = [](const auto& columns, std::string_view name) {
    for (const auto& c : columns)
      if (c.name == name) return c.write;
    throw std::logic_error(fmt::format("the results store has no column {}", name));
  };
  sqlite::statement explanation = m_db.prepare("UPDATE submissions SET sanitizer = ?1 WHERE id = ?2");
  store::bind_value(explanation, 1, writer_of(submission_columns(), "sanitizer")(stored_submission{id, r}));
  explanation.bind(2, id).run();
  sqlite::statement runs =
      m_db.prepare("UPDATE case_results SET sanitizer = ?1 WHERE submission_id = ?2 AND name = ?3");
  const auto write_runs = writer_of(case_columns(), "sanitizer");
  for (std::size_t k = 0; k < r.cases.size(); ++k) {
    store::bind_value(runs, 1, write_runs(stored_case{id, static_cast<std::int64_t>(k), r.cases[k]}));
    runs.bind(2, id).bind(3, r.cases[k].name).run();
    runs.reset();
  }
}

std::vector<solution_result> results_db::load(sqlite::statement& submissions, std::vector<std::int64_t>* ids_out) {
  std::vector<solution_result> out;
  std::vector<std::int64_t> ids;
  while (submissions.step()) {
    stored_submission s = read(row(submissions, m_db.file()), submission_columns());
    ids.push_back(s.id);
    out.push_back(std::move(s.result));
  }
  sqlite::statement cases = m_db.prepare(
      fmt::format("SELECT {} FROM case_results WHERE submission_id = ?1 ORDER BY idx", select_list(case_columns())));
  for (std::size_t k = 0; k < out.size(); ++k) {
    cases.bind(1, ids[k]);
    while (cases.step()) out[k].cases.push_back(read(row(cases, m_db.file()), case_columns()).result);
    cases.reset();
  }
  if (ids_out) *ids_out = std::move(ids);
  return out;
}

std::vector<solution_result> results_db::results_for(const std::string& problem) {
  sqlite::statement st = m_db.prepare(fmt::format(
      "SELECT {} FROM submissions WHERE problem = ?1 ORDER BY graded_at, id", select_list(submission_columns())));
  st.bind(1, problem);
  return load(st);
}

std::vector<std::pair<std::int64_t, solution_result>> results_db::recorded_for(const std::string& problem) {
  sqlite::statement st = m_db.prepare(fmt::format(
      "SELECT {} FROM submissions WHERE problem = ?1 ORDER BY graded_at, id", select_list(submission_columns())));
  st.bind(1, problem);
  std::vector<std::int64_t> ids;
  std::vector<solution_result> results = load(st, &ids);
  std::vector<std::pair<std::int64_t, solution_result>> out;
  for (std::size_t k = 0; k < results.size(); ++k) out.emplace_back(ids[k], std::move(results[k]));
  return out;
}

std::vector<solution_result> results_db::best_accepted(const std::string& problem) {
  sqlite::statement st = m_db.prepare(
      fmt::format("SELECT {0} FROM (SELECT *, row_number() OVER (PARTITION BY device_name, author "
                  "                                              ORDER BY score DESC, graded_at, id) AS pick "
                  "                 FROM submissions WHERE problem = ?1 AND verdict = ?2 AND implausible = 0) "
                  "WHERE pick = 1 ORDER BY device_name, score DESC, graded_at, id",
                  select_list(submission_columns())));
  st.bind(1, problem).bind(2, short_name(verdict::accepted));
  return load(st);
}

std::vector<solution_result> results_db::implausible_accepted(const std::string& problem) {
  sqlite::statement st =
      m_db.prepare(fmt::format("SELECT {} FROM submissions WHERE problem = ?1 AND verdict = ?2 AND implausible <> 0 "
                               "ORDER BY graded_at, id",
                               select_list(submission_columns())));
  st.bind(1, problem).bind(2, short_name(verdict::accepted));
  return load(st);
}

std::vector<solution_result> results_db::history(const std::string& author) {
  sqlite::statement st = m_db.prepare(fmt::format("SELECT {} FROM submissions WHERE author = ?1 ORDER BY graded_at, id",
                                                  select_list(submission_columns())));
  st.bind(1, author);
  return load(st);
}

} // namespace judge
