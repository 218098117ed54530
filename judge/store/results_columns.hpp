// The results store's two tables as data: each column's name, SQL declaration, the schema version that
// added it, and how a result's field is written to it and read back from it. The CREATE TABLE, ALTER
// TABLE, INSERT and SELECT statements are all made from these lists, and rows are read by column name.
// Private to results_db.cpp.
#pragma once

#include "grade_result.hpp"
#include "sqlite_db.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace judge::results_store {

/// A value as it is bound to a statement; nullptr is SQL NULL (and so is a NaN double).
using sql_value = std::variant<std::nullptr_t, std::int64_t, double, std::string>;

/// The row a SELECT has stepped to, read by column name.
class row {
public:
  /// `file` names the database in messages.
  row(const sqlite::statement& statement, std::string file);
  bool is_null(std::string_view column) const;
  std::int64_t integer(std::string_view column) const;
  /// 0 for NULL.
  double real(std::string_view column) const;
  /// "" for NULL.
  std::string text(std::string_view column) const;
  const std::string& file() const { return m_file; }

private:
  /// Throws std::logic_error for a column the SELECT did not name.
  int index(std::string_view column) const;

  const sqlite::statement& m_statement;
  std::string m_file;
  std::map<std::string, int, std::less<>> m_index;
};

/// One column of `row`, for the reader of that column.
class field {
public:
  field(const row& in, std::string_view name) : m_row(in), m_name(name) {}
  bool is_null() const { return m_row.is_null(m_name); }
  std::int64_t integer() const { return m_row.integer(m_name); }
  double real() const { return m_row.real(m_name); }
  std::string text() const { return m_row.text(m_name); }
  /// The whole row, for a field whose meaning depends on another column.
  const row& in() const { return m_row; }

private:
  const row& m_row;
  std::string_view m_name;
};

template <typename Record> struct column {
  const char* name;
  const char* declaration; ///< type and constraints, as CREATE TABLE / ALTER TABLE ADD COLUMN take them
  int since;               ///< the schema version that added it (1: the first CREATE TABLE)
  std::function<sql_value(const Record&)> write;   ///< empty: sqlite assigns it (the rowid)
  std::function<void(const field&, Record&)> read; ///< empty: stored for queries, not read back
};

/// A submissions row: a solution's result (its cases apart) and its id.
struct stored_submission {
  std::int64_t id = 0;
  solution_result result;
};

/// A case_results row: one case of a submission, at position `idx` of its case list.
struct stored_case {
  std::int64_t submission_id = 0;
  std::int64_t idx = 0;
  case_result result;
};

const std::vector<column<stored_submission>>& submission_columns();
const std::vector<column<stored_case>>& case_columns();

/// The schema version this judge writes (PRAGMA user_version).
constexpr int current_schema = 5;

/// The SQL that takes a store from schema version `version - 1` to `version` (1 to current_schema).
std::string migration_sql(int version);

/// "INSERT INTO <table> (<written columns>) VALUES (?1, ...)".
template <typename Record> std::string insert_sql(std::string_view table, const std::vector<column<Record>>& columns) {
  std::string names, values;
  int n = 0;
  for (const column<Record>& c : columns) {
    if (!c.write) continue;
    names += (n ? ", " : "") + std::string(c.name);
    values += (n ? ", ?" : "?") + std::to_string(n + 1);
    ++n;
  }
  return "INSERT INTO " + std::string(table) + " (" + names + ") VALUES (" + values + ")";
}

/// The columns read back, comma-separated, for a SELECT.
template <typename Record> std::string select_list(const std::vector<column<Record>>& columns) {
  std::string names;
  for (const column<Record>& c : columns)
    if (c.read) names += (names.empty() ? "" : ", ") + std::string(c.name);
  return names;
}

void bind_value(sqlite::statement& statement, int index, const sql_value& value);

/// Binds `record`'s written columns in insert_sql() order, runs the statement and resets it.
template <typename Record>
void insert(sqlite::statement& statement, const std::vector<column<Record>>& columns, const Record& record) {
  int index = 0;
  for (const column<Record>& c : columns)
    if (c.write) bind_value(statement, ++index, c.write(record));
  statement.run();
  statement.reset();
}

/// The record of the current row of a SELECT of select_list(columns).
template <typename Record> Record read(const row& in, const std::vector<column<Record>>& columns) {
  Record record;
  for (const column<Record>& c : columns)
    if (c.read) c.read(field(in, c.name), record);
  return record;
}

} // namespace judge::results_store
