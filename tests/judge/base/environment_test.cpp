#include "catch.hpp"
#include "text_match.hpp"

#include "judge/base/environment.hpp"

#include <cstdlib>
#include <set>
#include <string>

using namespace judge;
using judge_test::contains;

TEST_CASE("every JUDGE_ variable has one row: its name, what holds when unset, and its meaning", "[environment]") {
  std::set<std::string> names;
  std::set<judge_env> which;
  for (const env_variable& e : judge_variables()) {
    CAPTURE(e.name);
    CHECK(std::string(e.name).rfind("JUDGE_", 0) == 0);
    CHECK(names.insert(e.name).second);
    CHECK(which.insert(e.which).second);
    CHECK(std::string(e.unset).size() > 0);
    CHECK(std::string(e.meaning).size() > 0);
    CHECK(env_name(e.which) == std::string(e.name));
  }
  CHECK(names.size() == 13);
  CHECK(names.count("JUDGE_BUILD_DIR"));
  const std::string help = environment_help();
  for (const std::string& name : names) CHECK(contains(help, name));
}

TEST_CASE("a variable set to the empty string counts as unset", "[environment]") {
  ::setenv("JUDGE_LOCK_DIR", "", 1);
  CHECK_FALSE(env_value(judge_env::lock_dir));
  CHECK(non_empty_env("JUDGE_LOCK_DIR") == nullptr);
  ::setenv("JUDGE_LOCK_DIR", "/tmp/locks-of-a-test", 1);
  CHECK(env_value(judge_env::lock_dir) == std::string("/tmp/locks-of-a-test"));
  CHECK(non_empty_env("JUDGE_LOCK_DIR") == std::string("/tmp/locks-of-a-test"));
  ::unsetenv("JUDGE_LOCK_DIR");
  CHECK_FALSE(env_value(judge_env::lock_dir));
}
