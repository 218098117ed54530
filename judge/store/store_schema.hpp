// The schema of the store's SQLite file, every table of it (results, queue, accounts, Slurm jobs), as
// column lists on one ladder of versions (PRAGMA user_version). Version v is reached from v - 1 by:
// creating the tables that v adds, adding the columns and indexes that v adds, v's data step (moving
// values a column held into the form that replaces it), then dropping the columns that v drops. A new
// file climbs the same ladder from 0, so a fresh store and a migrated one have the same tables and
// columns. No other file creates or alters a table (tests/judge/store/store_schema_test.cpp checks the
// sources).
#pragma once

#include "judge/store/sqlite_db.hpp"

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace judge::store {

/// The schema version this judge writes.
inline constexpr int current_version = 10;

struct column_decl {
  std::string name;
  std::string declaration; ///< type and constraints, as CREATE TABLE / ALTER TABLE ADD COLUMN take them
  int since = 1;           ///< the version that added it
  int until = 0;           ///< the version that dropped it; 0 while it is current
  bool current() const { return until == 0; }
  bool at(int version) const { return since <= version && (until == 0 || version < until); }
};

struct index_decl {
  std::string name;
  std::string columns; ///< "(problem, verdict)"
  int since = 0;       ///< the version that added it; 0: made with its table
};

struct table_decl {
  std::string name;
  int since = 1;                    ///< the version that added it
  std::vector<column_decl> columns; ///< every version's, in their order on disk
  std::string constraint;           ///< a table constraint after the columns, or ""
  std::string options;              ///< " WITHOUT ROWID", or ""
  std::vector<index_decl> indexes;  ///< made with the table
};

/// Every table of the store, in the order they are created.
const std::vector<table_decl>& tables();

/// The current columns of `table`, less `except`, comma-separated: a SELECT's list, so that rows are
/// read by name (store::row). Throws std::logic_error for a table the schema does not have.
std::string select_list(std::string_view table, std::initializer_list<std::string_view> except = {});

/// Takes the store open in `db` from version `from` to version `to` (current_version, but for tests that
/// make the store an earlier judge left), inside the caller's transaction (results_db's constructor holds
/// it, and sets user_version after).
void climb(sqlite::database& db, int from, int to = current_version);

} // namespace judge::store
