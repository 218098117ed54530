// Integer expressions over a problem's size parameters ("2*M*N*K"), evaluated with overflow checks.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace judge {

class size_expr_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

using size_values = std::map<std::string, std::int64_t>;

class size_expr {
public:
  size_expr() = default; ///< the constant 0
  /// Parses `text`; throws size_expr_error naming the offending position.
  static size_expr parse(const std::string& text);
  /// Evaluates with 64-bit integers; throws size_expr_error on overflow, division by zero or an
  /// unknown name.
  std::int64_t evaluate(const size_values& values) const;
  /// Names the expression uses.
  std::vector<std::string> names() const;
  const std::string& text() const { return m_text; }

  struct node;

private:
  std::string m_text = "0";
  std::shared_ptr<const node> m_root;
};

} // namespace judge
