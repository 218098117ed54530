#include "catch.hpp"

#include "judge/sanitizer/sanitizer_expectation.hpp"

#include <stdexcept>
#include <vector>
#include <string>

using namespace judge;

TEST_CASE("an example's declared sanitizer finding is read and matched by tool, kind, access and line", "[sanitizer]") {
  const auto e = find_sanitizer_expectation("// Broken\n// Expected sanitizer: memcheck invalid write at line 21\n");
  REQUIRE(e);
  CHECK(e->tool == sanitizer_tool::memcheck);
  CHECK(e->kind == sanitizer_error_kind::invalid_access);
  CHECK(e->access == access_kind::write);
  CHECK(e->line == 21);
  CHECK_FALSE(find_sanitizer_expectation("// nothing declared\n"));
  std::string refused;
  try {
    find_sanitizer_expectation("\n// Expected sanitizer: memcheck something at 3\n");
  } catch (const std::runtime_error& error) {
    refused = error.what();
  }
  CHECK(refused.rfind("line 2: ", 0) == 0);

  sanitizer_run run;
  sanitizer_finding f;
  f.kind = sanitizer_error_kind::invalid_access;
  f.access = access_kind::write;
  f.at = {"writes_past_end.cu", 21};
  run.findings = {f};
  std::vector<sanitizer_run> runs = {run};
  CHECK(sanitizer_checked(runs));
  CHECK(sanitizer_found(runs, *e));
  runs[0].findings[0].at.line = 22;
  CHECK_FALSE(sanitizer_found(runs, *e));
  runs[0].findings[0].at.line = 21;
  runs[0].findings[0].access = access_kind::read;
  CHECK_FALSE(sanitizer_found(runs, *e));
  runs[0].state = sanitizer_state::not_available;
  CHECK_FALSE(sanitizer_checked(runs));
}
