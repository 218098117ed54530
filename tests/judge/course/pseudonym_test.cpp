#include "catch.hpp"
#include "judge/course/pseudonym.hpp"

#include <regex>
#include <set>

using namespace judge;

TEST_CASE("a pseudonym is stable per student, differs between students and secrets, and hides the name",
          "[course]") {
  judge_secret one, two;
  one.bytes.fill(1);
  two.bytes.fill(2);
  const std::string alice = course::pseudonym(one, "alice");
  CHECK(alice == course::pseudonym(one, "alice"));
  CHECK(std::regex_match(alice, std::regex("[a-z]+-[a-z]+-[0-9a-f]{4}")));
  CHECK(alice.find("alice") == std::string::npos);
  CHECK(alice != course::pseudonym(one, "bob"));
  CHECK(alice != course::pseudonym(two, "alice"));
  std::set<std::string> names;
  for (int i = 0; i < 300; ++i) names.insert(course::pseudonym(one, "student" + std::to_string(i)));
  CHECK(names.size() == 300);
}
