// The results store's two tables as data: each column's name, SQL declaration, the schema versions that
// added (and dropped) it, and how a result's field is written to it and read back from it. The schema
// ladder (store_schema.cpp) makes CREATE TABLE and ALTER TABLE from these lists; INSERT and SELECT are
// made from them here, and rows are read by column name. Private to the store.
#pragma once

#include "judge/record/grade_result.hpp"
#include "judge/store/sql_row.hpp"
#include "judge/store/sqlite_db.hpp"
#include "judge/store/store_schema.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace judge::results_store {

using store::row;
using store::sql_value;

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
  std::function<sql_value(const Record&)> write;   ///< empty: sqlite assigns it, or no longer written
  std::function<void(const field&, Record&)> read; ///< empty: stored for queries, or no longer read
  int until = 0; ///< the schema version that dropped it (its data moved on); 0 while it is current
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

/// Each table's columns as the schema ladder declares them (store_schema.hpp), every version's.
std::vector<store::column_decl> submission_decls();
std::vector<store::column_decl> case_decls();

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

/// Binds `record`'s written columns in insert_sql() order, runs the statement and resets it.
template <typename Record>
void insert(sqlite::statement& statement, const std::vector<column<Record>>& columns, const Record& record) {
  int index = 0;
  for (const column<Record>& c : columns)
    if (c.write) store::bind_value(statement, ++index, c.write(record));
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
