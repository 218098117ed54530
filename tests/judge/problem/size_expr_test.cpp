#include "judge/problem/size_expr.hpp"

#include "catch.hpp"
#include "spec_test_files.hpp"

#include <cstdint>
#include <limits>
#include <string>

using judge::size_expr;
using judge::size_expr_error;
using judge::size_values;
using spec_test::message_of;

namespace {

const size_values matmul_sizes{{"M", 1001}, {"N", 513}, {"K", 777}};

std::string evaluation_error(const std::string& text, const size_values& values) {
  return message_of<size_expr_error>([&] { size_expr::parse(text).evaluate(values); });
}

std::string parse_error(const std::string& text) {
  return message_of<size_expr_error>([&] { size_expr::parse(text); });
}

} // namespace

TEST_CASE("expressions follow the usual precedence of + - * / and parentheses", "[size_expr]") {
  struct row {
    const char* text;
    std::int64_t value;
  };
  const row r = GENERATE(row{"42", 42}, row{"M", 1001}, row{"2*M*N*K", 2LL * 1001 * 513 * 777},
                         row{"M + N * K", 1001 + 513 * 777}, row{"(M + N) * K", (1001 + 513) * 777},
                         row{"M - N - K", 1001 - 513 - 777}, row{"M / 2 / 5", 1001 / 2 / 5}, row{"-N + M", 1001 - 513},
                         row{"-(M - N)", 513 - 1001}, row{"K / (N - 1)", 777 / 512}, row{"  ( ( M ) )  ", 1001},
                         row{"M*N + N*K + M*K", 1001 * 513 + 513 * 777 + 1001 * 777});
  CAPTURE(r.text);
  CHECK(size_expr::parse(r.text).evaluate(matmul_sizes) == r.value);
}

TEST_CASE("division truncates toward zero like C++", "[size_expr]") {
  CHECK(size_expr::parse("7 / 2").evaluate({}) == 3);
  CHECK(size_expr::parse("-7 / 2").evaluate({}) == -3);
}

TEST_CASE("a default expression is the constant 0", "[size_expr]") {
  const size_expr zero;
  CHECK(zero.evaluate({}) == 0);
  CHECK(zero.text() == "0");
  CHECK(zero.names().empty());
}

TEST_CASE("an expression keeps its text and lists each name it uses once, in order of first use", "[size_expr]") {
  const size_expr e = size_expr::parse("2*M*N + M*K");
  CHECK(e.text() == "2*M*N + M*K");
  CHECK(e.names() == std::vector<std::string>{"M", "N", "K"});
  CHECK(size_expr::parse("16").names().empty());
}

TEST_CASE("names may hold letters, digits and underscores", "[size_expr]") {
  const size_values values{{"rows_2", 6}, {"_tile", 4}};
  CHECK(size_expr::parse("rows_2*_tile").evaluate(values) == 24);
}

TEST_CASE("a malformed expression is rejected with its column", "[size_expr]") {
  struct row {
    const char* text;
    const char* expected;
  };
  const row r = GENERATE(
      row{"", "size expression '' is empty (column 1)"}, row{"   ", "is empty"},
      row{"2*M+", "size expression '2*M+' ends where a number, a name or '(' was expected (column 5)"},
      row{"(M+N", "expected ')' to close the '(' at column 1 (column 5)"},
      row{"M+N)", "expected an operator (+ - * /) or the end, found ')' (column 4)"}, row{"2M", "found 'M' (column 2)"},
      row{"M % N", "found '%' (column 3)"}, row{"M ** N", "expected a number, a name or '(', found '*' (column 4)"},
      row{"99999999999999999999", "has the literal 99999999999999999999, which does not fit in a 64-bit integer"});
  CAPTURE(r.text);
  const std::string message = parse_error(r.text);
  CAPTURE(message);
  CHECK(message.find(r.expected) != std::string::npos);
}

TEST_CASE("nesting deeper than the parser allows is an error, not a crash", "[size_expr]") {
  const std::string deep = std::string(10000, '(') + "1" + std::string(10000, ')');
  const std::string message = parse_error(deep);
  CAPTURE(message.substr(0, 200));
  CHECK(message.find("nests deeper than") != std::string::npos);
  const std::string fine = std::string(50, '(') + "1" + std::string(50, ')');
  CHECK(size_expr::parse(fine).evaluate({}) == 1);
}

TEST_CASE("the largest 64-bit literal is accepted", "[size_expr]") {
  CHECK(size_expr::parse("9223372036854775807").evaluate({}) == std::numeric_limits<std::int64_t>::max());
}

TEST_CASE("overflow in any operation is an error that quotes the part that overflowed", "[size_expr]") {
  const size_values big{{"M", std::int64_t{1} << 32}, {"N", std::int64_t{1} << 31}, {"K", 4}};
  struct row {
    const char* text;
    const char* expected;
  };
  const row r = GENERATE(
      row{"M*M", "size expression 'M*M': M*M overflows 64-bit integers (4294967296 * 4294967296)"},
      row{"(M*N)*K + 1", "size expression '(M*N)*K + 1': (M*N) overflows 64-bit integers (4294967296 * 2147483648)"},
      row{"N*N*K", "size expression 'N*N*K': N*N*K overflows 64-bit integers (4611686018427387904 * 4)"},
      row{"9223372036854775807 + 1", "overflows 64-bit integers (9223372036854775807 + 1)"},
      row{"-9223372036854775807 - 2", "overflows 64-bit integers (-9223372036854775807 - 2)"},
      row{"(-9223372036854775807 - 1) / -1", "overflows 64-bit integers (-9223372036854775808 / -1)"},
      row{"-(-9223372036854775807 - 1)", "overflows 64-bit integers (-(-9223372036854775808))"});
  CAPTURE(r.text);
  const std::string message = evaluation_error(r.text, big);
  CAPTURE(message);
  CHECK(message.find(r.expected) != std::string::npos);
}

TEST_CASE("a product just below the 64-bit limit is not an overflow", "[size_expr]") {
  const size_values values{{"M", 3037000499}};
  CHECK(size_expr::parse("M*M").evaluate(values) == 3037000499LL * 3037000499LL);
}

TEST_CASE("division by zero is an error naming the divisor", "[size_expr]") {
  const std::string message = evaluation_error("M / (N - N)", matmul_sizes);
  CHECK(message == "size expression 'M / (N - N)': division by zero ((N - N) is 0)");
}

TEST_CASE("an unknown name is an error listing the known ones", "[size_expr]") {
  CHECK(evaluation_error("M*Q", matmul_sizes) == "size expression 'M*Q': unknown name 'Q' (known: K, M, N)");
  CHECK(evaluation_error("Q", {}) == "size expression 'Q': unknown name 'Q' (no names are known here)");
}
