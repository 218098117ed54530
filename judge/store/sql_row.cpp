#include "judge/store/sql_row.hpp"

#include <fmt/format.h>

#include <stdexcept>
#include <type_traits>

namespace judge::store {

void bind_value(sqlite::statement& statement, int index, const sql_value& value) {
  std::visit(
      [&](const auto& v) {
        if constexpr (std::is_same_v<std::decay_t<decltype(v)>, std::nullptr_t>)
          statement.bind_null(index);
        else
          statement.bind(index, v);
      },
      value);
}

row::row(const sqlite::statement& statement, std::string file) : m_statement(statement), m_file(std::move(file)) {
  for (int k = 0; k < statement.column_count(); ++k) m_index.emplace(statement.column_name(k), k);
}

int row::index(std::string_view column) const {
  const auto it = m_index.find(column);
  if (it == m_index.end()) throw std::logic_error(fmt::format("the query did not select column '{}'", column));
  return it->second;
}

bool row::is_null(std::string_view column) const { return m_statement.is_null(index(column)); }
std::int64_t row::integer(std::string_view column) const { return m_statement.get_int(index(column)); }
double row::real(std::string_view column) const { return m_statement.get_double(index(column)); }
std::string row::text(std::string_view column) const { return m_statement.get_text(index(column)); }

} // namespace judge::store
