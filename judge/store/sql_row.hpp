// A row of a query, read by column name, and a value as it is bound: what every table's reader in the
// store's file (results, queue, accounts, Slurm jobs) uses, so that no reader depends on column positions.
#pragma once

#include "judge/store/sqlite_db.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <variant>

namespace judge::store {

/// A value as it is bound to a statement; nullptr is SQL NULL (and so is a NaN double).
using sql_value = std::variant<std::nullptr_t, std::int64_t, double, std::string>;

void bind_value(sqlite::statement& statement, int index, const sql_value& value);

/// The row a SELECT has stepped to, read by column name (or by the name an `AS` gave it).
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

} // namespace judge::store
