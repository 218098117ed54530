// The results store: every graded solution and its cases, in one SQLite file that several judges may write
// at once (WAL mode, a 10 s busy timeout, one transaction per solution). Opening it brings every table of
// the file (results, and the online judge's queue, accounts and Slurm jobs) to the current version of the
// one schema ladder (store_schema.hpp).
#pragma once

#include "judge/record/grade_result.hpp"
#include "judge/store/sqlite_db.hpp"

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace judge {

/// The file given as the store cannot be used as one (not a database, or written by a newer judge). The
/// file is left as it is: what it holds is never overwritten.
class store_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Move-only: it owns its connection. One per thread to write concurrently.
class results_db {
public:
  /// The schema version this judge writes (PRAGMA user_version).
  static int schema_version();

  /// Opens the store at `path`, creating its folders, the file and the schema as needed, and migrates an
  /// older schema to schema_version() (every table's, in one transaction). Throws store_error for a file
  /// that is not a SQLite database or that a newer judge wrote; sqlite::error for anything else.
  explicit results_db(const std::filesystem::path& path);

  /// Stores `result` and all its cases in one transaction: either everything is stored or, on any error,
  /// nothing. Returns the new submission's id.
  std::int64_t record(const solution_result& result);
  /// record() inside the caller's open transaction `tx` on this store's connection, so that the result
  /// and whatever else the caller writes commit together (the online judge's queue: exactly once).
  std::int64_t record_within(sqlite::transaction& tx, const solution_result& result);
  /// Replaces, in the stored result `id` (record()'s), its explanation and its cases' sanitizer runs by
  /// `result`'s (an explanation that ran after the result was recorded), inside the caller's open
  /// transaction `tx`. Cases are matched by name; nothing else of the stored result changes.
  void record_explanation_within(sqlite::transaction& tx, std::int64_t id, const solution_result& result);

  // Reads give back what record() stored, except that a NaN figure comes back as 0 (sqlite stores NaN as
  // NULL, JSON as null); a `baseline_timing` stored before schema version 7 kept only median_ms and noise.

  /// Every stored result for `problem`, oldest first.
  std::vector<solution_result> results_for(const std::string& problem);
  /// Each author's best accepted result for `problem` on each GPU model (device name): the highest score,
  /// the earlier one on a tie; results flagged implausible are never picked. Ordered by device name, then
  /// score descending, then time graded.
  std::vector<solution_result> best_accepted(const std::string& problem);
  /// The accepted results for `problem` flagged implausible (a time below the device's physical floor),
  /// oldest first: not ranked, listed for the instructor.
  std::vector<solution_result> implausible_accepted(const std::string& problem);
  /// Every stored result for `problem` with its id (what the queue's result_id names), oldest first.
  std::vector<std::pair<std::int64_t, solution_result>> recorded_for(const std::string& problem);
  /// Every stored result of `author`, for every problem, oldest first.
  std::vector<solution_result> history(const std::string& author);

  /// The underlying connection (for maintenance queries and tests).
  sqlite::database& connection() { return m_db; }

private:
  void migrate();
  std::vector<solution_result> load(sqlite::statement& submissions, std::vector<std::int64_t>* ids = nullptr);

  sqlite::database m_db;
};

} // namespace judge
