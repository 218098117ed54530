#include "judge/service/queue/accounts.hpp"
#include "catch.hpp"
#include "judge/store/results_db.hpp"
#include "results_fixtures.hpp"
#include "judge/service/queue/submission_queue.hpp"
#include "text_match.hpp"

#include <fstream>
#include <set>

using namespace judge;
using namespace judge::service;
using judge_test::contains;
using judge_test::temp_folder;

namespace {
void write(const std::filesystem::path& file, const std::string& text) { std::ofstream(file) << text; }

std::string failure_of(const std::function<void()>& body) {
  try {
    body();
  } catch (const account_error& e) {
    return e.what();
  }
  return "";
}
} // namespace

TEST_CASE("a token is jt_ and 43 base64url characters and different every time", "[service]") {
  std::set<std::string> seen;
  for (int i = 0; i < 50; ++i) {
    const std::string t = new_token();
    CHECK(t.size() == 3 + 43);
    CHECK(t.rfind("jt_", 0) == 0);
    CHECK(t.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", 3) ==
          std::string::npos);
    seen.insert(t);
  }
  CHECK(seen.size() == 50);
}

TEST_CASE("a token's hash is its SHA-256 in hex", "[service]") {
  CHECK(token_hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST_CASE("an account signs in with its token and no other and the store keeps only the hash", "[service]") {
  temp_folder dir;
  results_db store(dir / "judge.db");
  accounts users(store);
  const std::string alice = users.add("alice", role::student);
  const std::string bob = users.add("bob", role::instructor);
  REQUIRE(users.authenticate(alice));
  CHECK(users.authenticate(alice)->name == "alice");
  CHECK(users.authenticate(alice)->who == role::student);
  CHECK(users.authenticate(bob)->who == role::instructor);
  CHECK_FALSE(users.authenticate(alice + "x"));
  CHECK_FALSE(users.authenticate(""));
  CHECK_FALSE(users.authenticate("not a token"));
  sqlite::statement st = store.connection().prepare("SELECT token_sha256 FROM accounts WHERE name = 'alice'");
  REQUIRE(st.step());
  CHECK(st.get_text(0) == token_hash(alice));
  CHECK_FALSE(contains(st.get_text(0), alice.substr(3)));
}

TEST_CASE("a taken or invalid account name is refused with its reason", "[service]") {
  temp_folder dir;
  results_db store(dir / "judge.db");
  accounts users(store);
  users.add("alice", role::student);
  CHECK(contains(failure_of([&] { users.add("alice", role::instructor); }), "exists already"));
  for (const std::string& bad :
       std::vector<std::string>{"", "../x", "a b", ".hidden", "-opt", std::string(65, 'a'), "caf\xc3\xa9"}) {
    CAPTURE(bad);
    CHECK(contains(failure_of([&] { users.add(bad, role::student); }), "not allowed"));
  }
  CHECK(users.list().size() == 1);
}

TEST_CASE("rotating a token stops the old one at once", "[service]") {
  temp_folder dir;
  results_db store(dir / "judge.db");
  accounts users(store);
  const std::string old_token = users.add("alice", role::student);
  const std::string new_token = users.rotate_token("alice");
  CHECK(new_token != old_token);
  CHECK_FALSE(users.authenticate(old_token));
  CHECK(users.authenticate(new_token)->name == "alice");
  CHECK(contains(failure_of([&] { users.rotate_token("nobody"); }), "no account \"nobody\""));
}

TEST_CASE("a roster is imported whole with a header and comments and default roles", "[service]") {
  temp_folder dir;
  results_db store(dir / "judge.db");
  accounts users(store);
  write(dir / "roster.csv", "name,role\n# the class\nalice,student\n\nbob\ncarol , instructor\r\n");
  const auto tokens = users.import_roster(dir / "roster.csv").added;
  REQUIRE(tokens.size() == 3);
  CHECK(tokens[0].first == "alice");
  CHECK(tokens[2].first == "carol");
  CHECK(users.authenticate(tokens[1].second)->name == "bob");
  CHECK(users.find("bob")->who == role::student);
  CHECK(users.find("carol")->who == role::instructor);
  CHECK(users.list().size() == 3);
}

TEST_CASE("a roster with a bad line imports nothing and names the line", "[service]") {
  temp_folder dir;
  results_db store(dir / "judge.db");
  accounts users(store);
  users.add("dave", role::student);
  write(dir / "bad-role.csv", "alice,student\nbob,teacher\n");
  CHECK(contains(failure_of([&] { users.import_roster(dir / "bad-role.csv"); }), "bad-role.csv:2: unknown role"));
  write(dir / "taken.csv", "alice\ndave,instructor\n");
  CHECK(contains(failure_of([&] { users.import_roster(dir / "taken.csv"); }),
                 "taken.csv:2: account \"dave\" exists already as student, not instructor"));
  write(dir / "twice.csv", "alice\nalice\n");
  CHECK(contains(failure_of([&] { users.import_roster(dir / "twice.csv"); }), "appears twice"));
  CHECK(users.list().size() == 1);
}

TEST_CASE("the same roster with a name added imports that name and keeps the others' tokens", "[service]") {
  temp_folder dir;
  results_db store(dir / "judge.db");
  accounts users(store);
  write(dir / "roster.csv", "name,role\nalice\nbob\n");
  const auto first = users.import_roster(dir / "roster.csv");
  REQUIRE(first.added.size() == 2);
  write(dir / "roster.csv", "name,role\nalice\nbob\ncarol\n");
  const auto second = users.import_roster(dir / "roster.csv");
  REQUIRE(second.added.size() == 1);
  CHECK(second.added[0].first == "carol");
  CHECK(second.kept == std::vector<std::string>{"alice", "bob"});
  CHECK(users.authenticate(first.added[0].second)->name == "alice"); // alice's token still works
}

TEST_CASE("a disabled account cannot sign in until it gets a new token and one with submissions is not removed",
          "[service]") {
  temp_folder dir;
  results_db store(dir / "judge.db");
  accounts users(store);
  const std::string alice = users.add("alice", role::student);
  users.add("bob", role::student);
  users.disable("alice");
  CHECK_FALSE(users.authenticate(alice));
  CHECK(users.find("alice")->disabled);
  CHECK_FALSE(users.find("bob")->disabled);
  const std::string again = users.rotate_token("alice");
  CHECK(users.authenticate(again)->name == "alice");
  CHECK_FALSE(users.find("alice")->disabled);

  submission_queue queue(store);
  queue.enqueue("alice", "matmul", {{"a.cu", "x"}});
  CHECK(contains(failure_of([&] { users.remove("alice"); }), "has 1 submission(s)"));
  CHECK(users.find("alice"));
  users.remove("bob");
  CHECK_FALSE(users.find("bob"));
  CHECK(contains(failure_of([&] { users.disable("nobody"); }), "no account \"nobody\""));
}
