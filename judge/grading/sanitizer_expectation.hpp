// What an example solution declares compute-sanitizer must find (`judge verify`), in a comment of its
// source: `// Expected sanitizer: memcheck invalid write at line 19`. The what is one of "invalid read",
// "invalid write", "invalid atomic", "race", "uninitialised read" (or "uninitialized read"), "hardware
// exception". Pure: parsing the declaration and matching it against a result's sanitizer runs.
#pragma once

#include "judge/record/grade_result.hpp"

#include <optional>
#include <string>

namespace judge {

struct sanitizer_expectation {
  sanitizer_tool tool = sanitizer_tool::memcheck;
  sanitizer_error_kind kind = sanitizer_error_kind::invalid_access;
  access_kind access = access_kind::unknown; ///< for invalid accesses: read, write or atomic
  int line = 0;                              ///< in the solution's file
  std::string text;                          ///< the declaration as written, for messages
};

/// The declaration in `source`; nullopt when it has none. Throws std::runtime_error naming the line when
/// a declaration is there but cannot be read.
std::optional<sanitizer_expectation> find_sanitizer_expectation(const std::string& source);

/// Whether one of `result`'s sanitizer runs found what `expected` declares (a finding of its tool and
/// kind, access when given, whose line, or a race's other line, is the declared one).
bool sanitizer_found(const solution_result& result, const sanitizer_expectation& expected);

/// Whether any of `result`'s cases had a sanitizer run that could check anything (state ran or timed_out).
bool sanitizer_checked(const solution_result& result);

} // namespace judge
