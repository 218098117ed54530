#include "judge/problem/size_expr.hpp"

#include <algorithm>
#include <cctype>
#include <utility>

namespace judge {

/// One operation of a parsed expression; `begin`/`end` delimit the text it came from, so that an
/// evaluation error can quote the part that failed.
struct size_expr::node {
  enum class op { literal, name, negate, add, subtract, multiply, divide };
  op kind = op::literal;
  std::int64_t value = 0; ///< literal only
  std::string name;       ///< name only
  std::shared_ptr<const node> lhs, rhs;
  std::size_t begin = 0, end = 0;
};

namespace {

using node = size_expr::node;
using node_ptr = std::shared_ptr<const node>;

// Parentheses nest at most this deep: deeper is surely a mistake, and it bounds the recursion.
constexpr int max_depth = 64;

/// Recursive descent over
///   sum     := product (('+' | '-') product)*
///   product := operand (('*' | '/') operand)*
///   operand := ('-' | '+') operand | '(' sum ')' | integer | name
class parser {
public:
  explicit parser(const std::string& text) : m_text(text) {}

  node_ptr parse_all() {
    skip_space();
    if (m_pos == m_text.size()) fail(m_pos, "is empty");
    node_ptr root = sum(0);
    skip_space();
    if (m_pos != m_text.size())
      fail(m_pos, "expected an operator (+ - * /) or the end, found '" + std::string(1, m_text[m_pos]) + "'");
    return root;
  }

private:
  node_ptr sum(int depth) { return level(depth, {'+', node::op::add}, {'-', node::op::subtract}, &parser::product); }

  node_ptr product(int depth) {
    return level(depth, {'*', node::op::multiply}, {'/', node::op::divide}, &parser::operand);
  }

  /// One precedence level, `next ((a | b) next)*`, associating to the left: a - b - c is (a - b) - c.
  node_ptr level(int depth, std::pair<char, node::op> a, std::pair<char, node::op> b, node_ptr (parser::*next)(int)) {
    node_ptr lhs = (this->*next)(depth);
    for (char c = peek(); c == a.first || c == b.first; c = peek()) {
      ++m_pos;
      lhs = binary(c == a.first ? a.second : b.second, lhs, (this->*next)(depth));
    }
    return lhs;
  }

  node_ptr operand(int depth) {
    if (depth > max_depth) fail(m_pos, "nests deeper than " + std::to_string(max_depth) + " levels");
    const char c = peek();
    const std::size_t begin = m_pos;
    if (c == '+' || c == '-') {
      ++m_pos;
      node_ptr inner = operand(depth + 1);
      if (c == '+') return inner;
      auto n = std::make_shared<node>();
      n->kind = node::op::negate;
      n->lhs = inner;
      n->begin = begin;
      n->end = inner->end;
      return n;
    }
    if (c == '(') {
      ++m_pos;
      node_ptr inner = sum(depth + 1);
      if (peek() != ')') fail(m_pos, "expected ')' to close the '(' at column " + std::to_string(begin + 1));
      ++m_pos;
      auto n = std::make_shared<node>(*inner);
      n->begin = begin; // quote the parentheses along with what they enclose
      n->end = m_pos;
      return n;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) return literal();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') return name();
    if (m_pos == m_text.size()) fail(m_pos, "ends where a number, a name or '(' was expected");
    fail(m_pos, "expected a number, a name or '(', found '" + std::string(1, c) + "'");
  }

  node_ptr literal() {
    auto n = std::make_shared<node>();
    n->begin = m_pos;
    while (m_pos < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[m_pos]))) {
      const int digit = m_text[m_pos] - '0';
      if (__builtin_mul_overflow(n->value, 10, &n->value) || __builtin_add_overflow(n->value, digit, &n->value)) {
        while (m_pos < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[m_pos]))) ++m_pos;
        fail(n->begin, "has the literal " + m_text.substr(n->begin, m_pos - n->begin) +
                           ", which does not fit in a 64-bit integer");
      }
      ++m_pos;
    }
    n->end = m_pos;
    return n;
  }

  node_ptr name() {
    auto n = std::make_shared<node>();
    n->kind = node::op::name;
    n->begin = m_pos;
    while (m_pos < m_text.size() && (std::isalnum(static_cast<unsigned char>(m_text[m_pos])) || m_text[m_pos] == '_'))
      ++m_pos;
    n->end = m_pos;
    n->name = m_text.substr(n->begin, n->end - n->begin);
    return n;
  }

  static node_ptr binary(node::op kind, node_ptr lhs, node_ptr rhs) {
    auto n = std::make_shared<node>();
    n->kind = kind;
    n->begin = lhs->begin;
    n->end = rhs->end;
    n->lhs = std::move(lhs);
    n->rhs = std::move(rhs);
    return n;
  }

  char peek() {
    skip_space();
    return m_pos < m_text.size() ? m_text[m_pos] : '\0';
  }

  void skip_space() {
    while (m_pos < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[m_pos]))) ++m_pos;
  }

  [[noreturn]] void fail(std::size_t at, const std::string& what) const {
    throw size_expr_error("size expression '" + m_text + "' " + what + " (column " + std::to_string(at + 1) + ")");
  }

  const std::string& m_text;
  std::size_t m_pos = 0;
};

class evaluator {
public:
  evaluator(const std::string& text, const size_values& values) : m_text(text), m_values(values) {}

  std::int64_t operator()(const node& n) const {
    switch (n.kind) {
    case node::op::literal:
      return n.value;
    case node::op::name: {
      auto it = m_values.find(n.name);
      if (it == m_values.end()) fail("unknown name '" + n.name + "' (" + known_names() + ")");
      return it->second;
    }
    case node::op::negate: {
      const std::int64_t a = (*this)(*n.lhs);
      std::int64_t result = 0;
      if (__builtin_sub_overflow(std::int64_t{0}, a, &result)) overflow(n, "-(" + std::to_string(a) + ")");
      return result;
    }
    default:
      break;
    }
    const std::int64_t a = (*this)(*n.lhs);
    const std::int64_t b = (*this)(*n.rhs);
    std::int64_t result = 0;
    bool overflowed = false;
    char symbol = '/';
    switch (n.kind) {
    case node::op::add:
      overflowed = __builtin_add_overflow(a, b, &result);
      symbol = '+';
      break;
    case node::op::subtract:
      overflowed = __builtin_sub_overflow(a, b, &result);
      symbol = '-';
      break;
    case node::op::multiply:
      overflowed = __builtin_mul_overflow(a, b, &result);
      symbol = '*';
      break;
    default:
      if (b == 0) fail("division by zero (" + span(*n.rhs) + " is 0)");
      // The one quotient that does not fit: the most negative value divided by -1.
      overflowed = a == INT64_MIN && b == -1;
      if (!overflowed) result = a / b;
      break;
    }
    if (overflowed) overflow(n, std::to_string(a) + " " + symbol + " " + std::to_string(b));
    return result;
  }

private:
  std::string span(const node& n) const { return m_text.substr(n.begin, n.end - n.begin); }

  std::string known_names() const {
    if (m_values.empty()) return "no names are known here";
    std::string known = "known: ";
    for (const auto& [name, value] : m_values) known += (known.size() > 7 ? ", " : "") + name;
    return known;
  }

  [[noreturn]] void overflow(const node& n, const std::string& operation) const {
    fail(span(n) + " overflows 64-bit integers (" + operation + ")");
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw size_expr_error("size expression '" + m_text + "': " + what);
  }

  const std::string& m_text;
  const size_values& m_values;
};

void collect_names(const node& n, std::vector<std::string>& names) {
  if (n.kind == node::op::name && std::find(names.begin(), names.end(), n.name) == names.end()) names.push_back(n.name);
  if (n.lhs) collect_names(*n.lhs, names);
  if (n.rhs) collect_names(*n.rhs, names);
}

} // namespace

size_expr size_expr::parse(const std::string& text) {
  size_expr e;
  e.m_root = parser(text).parse_all();
  e.m_text = text;
  return e;
}

std::int64_t size_expr::evaluate(const size_values& values) const {
  return m_root ? evaluator(m_text, values)(*m_root) : 0;
}

std::vector<std::string> size_expr::names() const {
  std::vector<std::string> names; // in order of first use, each once
  if (m_root) collect_names(*m_root, names);
  return names;
}

} // namespace judge
