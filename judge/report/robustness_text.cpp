#include "judge/report/robustness_text.hpp"

#include <fmt/format.h>

namespace judge {

namespace {
/// A verdict in words, as a sentence says it: "run-time error".
const char* verdict_words(verdict v) {
  switch (v) {
  case verdict::accepted:
    return "accepted";
  case verdict::wrong_answer:
    return "wrong answer";
  case verdict::compile_error:
    return "compile error";
  case verdict::run_time_error:
    return "run-time error";
  case verdict::time_limit_exceeded:
    return "time limit exceeded";
  case verdict::internal_error:
    return "internal error";
  }
  return "?";
}
} // namespace

std::string robustness_line(const case_result& c) {
  const std::string head = c.beyond_limits.empty()
                               ? fmt::format("{}: {}", robustness_label, c.name)
                               : fmt::format("{}: {} ({})", robustness_label, c.name, c.beyond_limits);
  if (c.v == verdict::accepted) return fmt::format("{}: passes at {}", head, c.shape);
  if (c.v == verdict::internal_error) return fmt::format("{}: not run: {}", head, c.message);
  return fmt::format("{}: would fail at {}: {}: {}", head, c.shape, verdict_words(c.v), c.message);
}

} // namespace judge
