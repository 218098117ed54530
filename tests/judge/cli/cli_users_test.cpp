#include "catch.hpp"
#include "judge_command.hpp"
#include "results_fixtures.hpp"
#include "text_match.hpp"

#include <fstream>
#include <regex>

using judge_test::contains;
using judge_test::run_judge;
using judge_test::temp_folder;

TEST_CASE("judge users adds and imports and lists and renews tokens and never lists a token", "[service][cli]") {
  temp_folder dir;
  const std::string db = " --db " + (dir / "judge.db").string();
  const auto added = run_judge("users add alice --role instructor" + db);
  REQUIRE(added.status == 0);
  CHECK(contains(added.output, "alice jt_"));
  std::ofstream(dir / "roster.csv") << "bob,student\ncarol\n";
  const auto imported = run_judge("users import " + (dir / "roster.csv").string() + db);
  REQUIRE(imported.status == 0);
  CHECK(contains(imported.output, "bob jt_"));
  CHECK(contains(imported.output, "carol jt_"));
  const auto listed = run_judge("users list" + db);
  CHECK(listed.status == 0);
  CHECK(listed.output.rfind("name                     role       created at\n", 0) == 0);
  CHECK(contains(listed.output, "alice"));
  CHECK(contains(listed.output, "instructor"));
  CHECK(contains(listed.output, "carol"));
  CHECK_FALSE(contains(listed.output, "jt_"));
  const auto renewed = run_judge("users token bob" + db);
  CHECK(renewed.status == 0);
  CHECK(contains(renewed.output, "bob jt_"));
}

TEST_CASE("judge users refuses a taken name or a bad role or an unknown account with exit 2", "[service][cli]") {
  temp_folder dir;
  const std::string db = " --db " + (dir / "judge.db").string();
  REQUIRE(run_judge("users add alice" + db).status == 0);
  const auto taken = run_judge("users add alice" + db);
  CHECK(taken.status == 2);
  CHECK(contains(taken.output, "account \"alice\" exists already"));
  const auto role = run_judge("users add bob --role teacher" + db);
  CHECK(role.status == 2);
  CHECK(contains(role.output, "unknown role \"teacher\""));
  const auto nobody = run_judge("users token nobody" + db);
  CHECK(nobody.status == 2);
  CHECK(contains(nobody.output, "no account \"nobody\""));
}

TEST_CASE("judge users imports a roster again with one new name and disables and removes", "[service][cli]") {
  temp_folder dir;
  const std::string db = " --db " + (dir / "judge.db").string();
  std::ofstream(dir / "roster.csv") << "bob,student\ncarol\n";
  REQUIRE(run_judge("users import " + (dir / "roster.csv").string() + db).status == 0);
  std::ofstream(dir / "roster.csv") << "bob,student\ncarol\ndave\n";
  const auto again = run_judge("users import " + (dir / "roster.csv").string() + db);
  CAPTURE(again.output);
  CHECK(again.status == 0);
  CHECK(contains(again.output, "dave jt_"));
  CHECK_FALSE(contains(again.output, "bob jt_"));
  CHECK(contains(again.output, "2 account(s) exist already and keep their tokens: bob, carol"));
  CHECK(run_judge("users disable carol" + db).status == 0);
  CHECK(contains(run_judge("users list" + db).output, "disabled"));
  CHECK(run_judge("users remove dave" + db).status == 0);
  CHECK_FALSE(contains(run_judge("users list" + db).output, "dave"));
  CHECK(run_judge("users remove nobody" + db).status == 2);
}

TEST_CASE("judge users prints the tokens it makes as CSV for a mail merge with --csv", "[service][cli]") {
  temp_folder dir;
  const std::string db = " --db " + (dir / "judge.db").string();
  std::ofstream(dir / "roster.csv") << "name,role\ntina,instructor\nalice\n";
  const auto imported = run_judge("users import " + (dir / "roster.csv").string() + " --csv" + db);
  REQUIRE(imported.status == 0);
  CAPTURE(imported.output);
  const std::regex csv("account,role,token\r\n"
                       "tina,instructor,jt_[A-Za-z0-9_-]{43}\r\n"
                       "alice,student,jt_[A-Za-z0-9_-]{43}\r\n");
  CHECK(std::regex_match(imported.output, csv));

  // Again with one late-comer: only the new token in the CSV; the others are named on stderr, outside it.
  std::ofstream(dir / "roster.csv") << "name,role\ntina,instructor\nalice\nbob\n";
  const auto again = run_judge("users import " + (dir / "roster.csv").string() + " --csv" + db);
  CHECK(again.status == 0);
  CHECK(std::regex_search(again.output, std::regex("account,role,token\r\nbob,student,jt_[A-Za-z0-9_-]{43}\r\n")));
  CHECK(contains(again.output, "2 account(s) exist already and keep their tokens: tina, alice"));
  // Nothing new: the header alone, so that a mail merge reads an empty list.
  const auto nothing = run_judge("users import " + (dir / "roster.csv").string() + " --csv" + db);
  CHECK(contains(nothing.output, "account,role,token\r\n"));
  CHECK_FALSE(contains(nothing.output, "jt_"));

  const auto added = run_judge("users add carol --csv" + db);
  CHECK(std::regex_match(added.output, std::regex("account,role,token\r\ncarol,student,jt_[A-Za-z0-9_-]{43}\r\n")));
  const auto renewed = run_judge("users token tina --csv" + db);
  CHECK(std::regex_match(renewed.output, std::regex("account,role,token\r\ntina,instructor,jt_[A-Za-z0-9_-]{43}\r\n")));
}
