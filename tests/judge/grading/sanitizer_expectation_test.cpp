#include "catch.hpp"

#include "judge/grading/sanitizer_expectation.hpp"

#include <stdexcept>
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

  solution_result r;
  r.cases.resize(1);
  sanitizer_run run;
  sanitizer_finding f;
  f.kind = sanitizer_error_kind::invalid_access;
  f.access = access_kind::write;
  f.at = {"writes_past_end.cu", 21};
  run.findings = {f};
  r.cases[0].sanitizer = {run};
  CHECK(sanitizer_checked(r));
  CHECK(sanitizer_found(r, *e));
  r.cases[0].sanitizer[0].findings[0].at.line = 22;
  CHECK_FALSE(sanitizer_found(r, *e));
  r.cases[0].sanitizer[0].findings[0].at.line = 21;
  r.cases[0].sanitizer[0].findings[0].access = access_kind::read;
  CHECK_FALSE(sanitizer_found(r, *e));
  r.cases[0].sanitizer[0].state = sanitizer_state::not_available;
  CHECK_FALSE(sanitizer_checked(r));
}
