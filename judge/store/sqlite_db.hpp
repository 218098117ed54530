// Move-only RAII wrappers over the sqlite3 C API: a connection, a prepared statement, a write transaction.
// Every failure is a judge::sqlite::error whose message names the database file, sqlite's own error text
// and the SQL that failed, so an instructor can reproduce it with the sqlite3 shell.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>

struct sqlite3;
struct sqlite3_stmt;

namespace judge::sqlite {

/// A failed sqlite call.
class error : public std::runtime_error {
public:
  error(const std::string& what, int code) : std::runtime_error(what), m_code(code) {}
  /// sqlite's extended result code (SQLITE_BUSY, SQLITE_CONSTRAINT_CHECK, ...).
  int code() const { return m_code; }
  /// Whether another connection held a lock this call needed (SQLITE_BUSY or one of its extended codes).
  bool is_busy() const;
  /// Whether the file is not a SQLite database at all (SQLITE_NOTADB).
  bool is_not_a_database() const;

private:
  int m_code;
};

class statement;

/// One connection. Use it from one thread at a time; open one per thread to write concurrently.
class database {
public:
  /// Opens `file` read-write, creating it if absent (its folder must exist).
  explicit database(const std::filesystem::path& file);
  ~database();
  database(database&& other) noexcept;
  database& operator=(database&& other) noexcept;
  database(const database&) = delete;
  database& operator=(const database&) = delete;

  /// Runs SQL text of one or more statements whose rows, if any, are discarded.
  void exec(const std::string& sql);
  /// Like exec, but reports failure by returning false: for destructors and rollbacks.
  bool try_exec(const char* sql) noexcept;
  /// Compiles one statement. The statement must not outlive this connection.
  statement prepare(const std::string& sql);
  /// Rowid of the last successful INSERT on this connection.
  std::int64_t last_insert_rowid() const;
  /// The file as given to the constructor (for messages).
  const std::string& file() const { return m_file; }

private:
  sqlite3* m_db = nullptr;
  std::string m_file;
};

/// One prepared statement. Parameters and columns are numbered as sqlite numbers them: parameters from 1,
/// result columns from 0.
class statement {
public:
  ~statement();
  statement(statement&& other) noexcept;
  statement& operator=(statement&& other) noexcept;
  statement(const statement&) = delete;
  statement& operator=(const statement&) = delete;

  statement& bind(int index, std::int64_t value);
  statement& bind(int index, int value);
  /// A NaN is stored as NULL (sqlite has no NaN).
  statement& bind(int index, double value);
  statement& bind(int index, const std::string& text);
  statement& bind_null(int index);

  /// Advances to the next row: true when a row is available, false when the statement is done.
  bool step();
  /// Steps to completion, discarding rows (INSERT, UPDATE, DDL).
  void run();
  /// Makes the statement runnable again and clears its bindings.
  void reset();

  /// Columns of the result (0 for a statement that returns no rows).
  int column_count() const;
  /// The name of result column `column`: its alias, else as sqlite names it (the column's own name).
  std::string column_name(int column) const;
  bool is_null(int column) const;
  std::int64_t get_int(int column) const;
  /// 0 for NULL.
  double get_double(int column) const;
  /// "" for NULL.
  std::string get_text(int column) const;

private:
  friend class database;
  statement(sqlite3* db, sqlite3_stmt* stmt, std::string file, std::string sql);
  [[noreturn]] void fail(int code) const;
  void check_bind(int code) const;

  sqlite3* m_db = nullptr;
  sqlite3_stmt* m_stmt = nullptr;
  std::string m_file, m_sql;
};

/// A write transaction: BEGIN IMMEDIATE on construction (waiting out other writers up to the busy timeout),
/// rolled back on destruction unless commit() ran, so an exception between the two leaves nothing behind.
class transaction {
public:
  explicit transaction(database& db);
  ~transaction();
  transaction(const transaction&) = delete;
  transaction& operator=(const transaction&) = delete;

  void commit();

private:
  database& m_db;
  bool m_open = true;
};

} // namespace judge::sqlite
