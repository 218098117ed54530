#include "catch.hpp"
#include "results_fixtures.hpp"
#include "judge/store/sqlite_db.hpp"

#include <cmath>
#include <stdexcept>
#include <utility>

using namespace judge;
using judge_test::temp_folder;

namespace {

std::int64_t count(sqlite::database& db, const std::string& table) {
  sqlite::statement st = db.prepare("SELECT count(*) FROM " + table);
  REQUIRE(st.step());
  return st.get_int(0);
}

} // namespace

TEST_CASE("a failing statement's error names the database file, sqlite's reason and the SQL", "[sqlite]") {
  temp_folder dir;
  sqlite::database db(dir / "x.db");
  db.exec("CREATE TABLE t (v INTEGER NOT NULL)");
  auto [sql, reason] = GENERATE(table<std::string, std::string>({
      {"SELECT * FROM missing_table", "no such table"},
      {"INSERT INTO t (v) VALUES (NULL)", "NOT NULL constraint failed"},
  }));
  try {
    sqlite::statement st = db.prepare(sql);
    st.run();
    FAIL("the statement should fail");
  } catch (const sqlite::error& e) {
    const std::string what = e.what();
    CAPTURE(what);
    CHECK(what.find((dir / "x.db").string()) != std::string::npos);
    CHECK(what.find(reason) != std::string::npos);
    CHECK(what.find(sql) != std::string::npos);
    CHECK(e.code() != 0);
  }
}

TEST_CASE("a database that cannot be opened is named in the error", "[sqlite]") {
  temp_folder dir;
  try {
    sqlite::database db(dir / "no/such/folder/x.db");
    FAIL("opening in a missing folder should throw");
  } catch (const sqlite::error& e) {
    CHECK(std::string(e.what()).find("no/such/folder/x.db") != std::string::npos);
  }
}

TEST_CASE("values round-trip through bind and get, NaN as NULL", "[sqlite]") {
  temp_folder dir;
  sqlite::database db(dir / "x.db");
  db.exec("CREATE TABLE t (i INTEGER, d REAL, s TEXT, n REAL)");
  const std::string with_nul("a\0b", 3);
  db.prepare("INSERT INTO t VALUES (?1, ?2, ?3, ?4)")
      .bind(1, std::int64_t{1} << 40)
      .bind(2, 0.1)
      .bind(3, with_nul)
      .bind(4, std::nan(""))
      .run();
  sqlite::statement st = db.prepare("SELECT i, d, s, n FROM t");
  REQUIRE(st.step());
  CHECK(st.get_int(0) == std::int64_t{1} << 40);
  CHECK(st.get_double(1) == 0.1);
  CHECK(st.get_text(2) == with_nul);
  CHECK(st.is_null(3));
  CHECK_FALSE(st.step());
}

TEST_CASE("a transaction rolls back unless committed", "[sqlite]") {
  temp_folder dir;
  sqlite::database db(dir / "x.db");
  db.exec("CREATE TABLE t (v INTEGER)");
  try {
    sqlite::transaction tx(db);
    db.exec("INSERT INTO t VALUES (1)");
    throw std::runtime_error("something failed midway");
  } catch (const std::runtime_error&) {
  }
  CHECK(count(db, "t") == 0);
  {
    sqlite::transaction tx(db);
    db.exec("INSERT INTO t VALUES (2)");
    tx.commit();
  }
  CHECK(count(db, "t") == 1);
}

TEST_CASE("connections and statements move, leaving the source empty", "[sqlite]") {
  temp_folder dir;
  sqlite::database first(dir / "x.db");
  first.exec("CREATE TABLE t (v INTEGER)");
  sqlite::database second = std::move(first);
  sqlite::statement insert = second.prepare("INSERT INTO t VALUES (?1)");
  sqlite::statement moved = std::move(insert);
  moved.bind(1, 7).run();
  CHECK(count(second, "t") == 1);
  CHECK(second.file() == (dir / "x.db").string());
  CHECK_FALSE(first.try_exec("SELECT 1")); // NOLINT(bugprone-use-after-move): moved-from is empty by contract
}

TEST_CASE("a new database is readable by its owner only and an existing one loses others' permissions", "[sqlite]") {
  temp_folder dir;
  namespace fs = std::filesystem;
  {
    sqlite::database db(dir / "new.db");
    db.exec("PRAGMA journal_mode = WAL; CREATE TABLE t (v INTEGER)");
    CHECK((fs::status(dir / "new.db").permissions() & fs::perms::all) ==
          (fs::perms::owner_read | fs::perms::owner_write));
    // sqlite gives its -wal file the database's own mode.
    CHECK((fs::status(dir / "new.db-wal").permissions() & (fs::perms::group_all | fs::perms::others_all)) ==
          fs::perms::none);
  }
  { sqlite::database make(dir / "old.db"); }
  fs::permissions(dir / "old.db",
                  fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read);
  sqlite::database db(dir / "old.db");
  CHECK((fs::status(dir / "old.db").permissions() & fs::perms::all) ==
        (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read));
}
