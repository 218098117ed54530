#include "judge/problem/case_set_version.hpp"

#include "judge/problem/problem.hpp"

#include "catch.hpp"
#include "temp_folder.hpp"

#include <string>

using judge::case_set_version;
using judge_test::temp_folder;

namespace {

const std::string problem_yaml = R"(title: Copy
status: draft
statement: statement.md
signature:
  - {name: x, type: const float*, role: input, shape: [N]}
  - {name: y, type: float*, role: output, shape: [N]}
  - {name: N, type: int, role: size}
tolerance: {atol: 1e-5, rtol: 1e-5}
)";

const std::string cases_yaml = R"(cases:
  - name: small   # a comment
    sizes: {N: 7}
    seed: 1
)";

/// The version of the problem and cases written with these texts.
std::string version_of(const std::string& problem, const std::string& cases) {
  const temp_folder dir;
  return case_set_version(dir.write("problem.yaml", problem), dir.write("cases.yaml", cases));
}

std::string edited(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

} // namespace

TEST_CASE("a case-set version is 12 hex digits, the same for the same files", "[spec]") {
  const std::string v = version_of(problem_yaml, cases_yaml);
  CHECK(v.size() == 12);
  CHECK(v.find_first_not_of("0123456789abcdef") == std::string::npos);
  CHECK(version_of(problem_yaml, cases_yaml) == v);
}

TEST_CASE("a new case, a changed seed or a tolerance changes the case-set version", "[spec]") {
  const std::string v = version_of(problem_yaml, cases_yaml);
  CHECK(version_of(problem_yaml, cases_yaml + "  - {name: big, sizes: {N: 1000}, seed: 2}\n") != v);
  CHECK(version_of(problem_yaml, edited(cases_yaml, "seed: 1", "seed: 3")) != v);
  CHECK(version_of(edited(problem_yaml, "atol: 1e-5", "atol: 1e-4"), cases_yaml) != v);
}

TEST_CASE("comments, spacing, the title, the status and the statement keep the case-set version", "[spec]") {
  const std::string v = version_of(problem_yaml, cases_yaml);
  CHECK(version_of(problem_yaml, edited(cases_yaml, "# a comment", "# another comment")) == v);
  CHECK(version_of(problem_yaml, edited(cases_yaml, "sizes: {N: 7}", "sizes:\n      N: 7")) == v);
  CHECK(version_of(edited(problem_yaml, "title: Copy", "title: Copy, renamed"), cases_yaml) == v);
  CHECK(version_of(edited(problem_yaml, "status: draft", "status: published"), cases_yaml) == v);
  CHECK(version_of(edited(problem_yaml, "statement: statement.md\n", ""), cases_yaml) == v);
}

TEST_CASE("a cases.yaml that is not YAML is named when its version is asked for", "[spec]") {
  const temp_folder dir;
  try {
    case_set_version(dir.write("problem.yaml", problem_yaml), dir.write("cases.yaml", "cases: [unclosed\n"));
    FAIL("a broken cases.yaml has no version");
  } catch (const judge::spec_error& e) {
    CHECK(std::string(e.what()).find("cases.yaml") != std::string::npos);
  }
}

TEST_CASE("a result without a case-set version is shown as unknown", "[spec]") {
  CHECK(judge::case_set_label("") == "unknown");
  CHECK(judge::case_set_label("0123456789ab") == "0123456789ab");
}
