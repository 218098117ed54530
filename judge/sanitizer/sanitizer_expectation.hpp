// What an example solution declares compute-sanitizer must find (`judge verify`), in a comment of its
// source: `// Expected sanitizer: memcheck invalid write at line 19`. The what is one of "invalid read",
// "invalid write", "invalid atomic", "race", "uninitialised read" (or "uninitialized read"), "hardware
// exception". Pure: parsing the declaration and matching it against a result's sanitizer runs.
#pragma once

#include "judge/sanitizer/sanitizer_run.hpp"

#include <optional>
#include <string>
#include <vector>

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

/// Whether one of `runs` (a result's, of all its cases) found what `expected` declares (a finding of its
/// tool and kind, access when given, whose line, or a race's other line, is the declared one).
bool sanitizer_found(const std::vector<sanitizer_run>& runs, const sanitizer_expectation& expected);

/// Whether any of `runs` could check anything (state ran or timed_out).
bool sanitizer_checked(const std::vector<sanitizer_run>& runs);

} // namespace judge
