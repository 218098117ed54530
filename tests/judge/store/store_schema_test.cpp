#include "catch.hpp"
#include "previous_store.hpp"
#include "judge/store/results_db.hpp"
#include "results_fixtures.hpp"
#include "judge/store/store_schema.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace judge;
using judge_test::temp_folder;
namespace fs = std::filesystem;

namespace {

/// Each table's columns, in their order on disk, as sqlite_master and table_info have them.
std::map<std::string, std::vector<std::string>> tables_on_disk(sqlite::database& db) {
  std::map<std::string, std::vector<std::string>> out;
  sqlite::statement tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
  while (tables.step()) {
    const std::string table = tables.get_text(0);
    sqlite::statement columns = db.prepare("SELECT name FROM pragma_table_info(?1) ORDER BY cid");
    columns.bind(1, table);
    while (columns.step()) out[table].push_back(columns.get_text(0));
  }
  return out;
}

std::set<std::string> indexes_on_disk(sqlite::database& db) {
  std::set<std::string> out;
  // sqlite's own indexes (for PRIMARY KEY and UNIQUE) have no SQL.
  sqlite::statement st = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL");
  while (st.step()) out.insert(st.get_text(0));
  return out;
}

/// What the ladder declares: each table's current columns, and its indexes.
std::map<std::string, std::set<std::string>> declared_columns() {
  std::map<std::string, std::set<std::string>> out;
  for (const store::table_decl& t : store::tables())
    for (const store::column_decl& c : t.columns)
      if (c.current()) out[t.name].insert(c.name);
  return out;
}

std::set<std::string> declared_indexes() {
  std::set<std::string> out;
  for (const store::table_decl& t : store::tables())
    for (const store::index_decl& i : t.indexes) out.insert(i.name);
  return out;
}

void check_against_ladder(sqlite::database& db) {
  const auto disk = tables_on_disk(db);
  const auto declared = declared_columns();
  std::set<std::string> disk_tables, declared_tables;
  for (const auto& [name, columns] : disk) disk_tables.insert(name);
  for (const auto& [name, columns] : declared) declared_tables.insert(name);
  CHECK(disk_tables == declared_tables);
  for (const auto& [name, columns] : declared) {
    CAPTURE(name);
    const auto it = disk.find(name);
    REQUIRE(it != disk.end());
    CHECK(std::set<std::string>(it->second.begin(), it->second.end()) == columns);
    CHECK(it->second.size() == columns.size()); // no column twice
  }
  CHECK(indexes_on_disk(db) == declared_indexes());
  sqlite::statement version = db.prepare("PRAGMA user_version");
  REQUIRE(version.step());
  CHECK(version.get_int(0) == store::current_version);
}

} // namespace

TEST_CASE("a new store has exactly the tables and columns the schema ladder declares", "[store_schema]") {
  temp_folder dir;
  results_db fresh(dir / "fresh.db");
  check_against_ladder(fresh.connection());
  // Every table the store's file holds, the results' and the online judge's alike.
  for (const char* table :
       {"submissions", "case_results", "queued_submissions", "queue_turns", "accounts", "slurm_jobs", "slurm_lost"})
    CHECK(declared_columns().count(table) == 1);
}

TEST_CASE("a store made by the previous judge climbs the ladder to the same tables and columns as a new one",
          "[store_schema]") {
  temp_folder dir;
  {
    sqlite::database by_hand(dir / "old.db");
    for (const char* sql : judge::testing::previous_store::all) by_hand.exec(sql);
  }
  SECTION("with every table the previous judge made") {}
  SECTION("with the online judge's tables never made (a store only `judge run` wrote)") {
    sqlite::database by_hand(dir / "old.db");
    by_hand.exec("DROP TABLE queued_submissions; DROP TABLE queue_turns; DROP TABLE accounts; DROP TABLE slurm_jobs;"
                 "DROP TABLE slurm_lost");
  }
  SECTION("with a queue made before notes and nodes") {
    sqlite::database by_hand(dir / "old.db");
    by_hand.exec("ALTER TABLE queued_submissions DROP COLUMN note; ALTER TABLE queued_submissions DROP COLUMN node");
  }
  results_db migrated(dir / "old.db");
  check_against_ladder(migrated.connection());
  results_db fresh(dir / "fresh.db");
  // The same columns in the same order: one ladder, climbed from 0 or from 5.
  CHECK(tables_on_disk(migrated.connection()) == tables_on_disk(fresh.connection()));
}

TEST_CASE("a store left at any earlier version of the ladder climbs to the same tables, columns and indexes as a "
          "new one",
          "[store_schema]") {
  const int version = GENERATE(range(6, store::current_version));
  CAPTURE(version);
  temp_folder dir;
  {
    sqlite::database earlier(dir / "earlier.db");
    sqlite::transaction tx(earlier);
    store::climb(earlier, 0, version);
    tx.commit();
    earlier.exec("PRAGMA user_version = " + std::to_string(version));
    CHECK(indexes_on_disk(earlier).count("queued_submissions_by_sanitizer") == 0); // version 10 adds it
  }
  results_db migrated(dir / "earlier.db");
  check_against_ladder(migrated.connection());
  results_db fresh(dir / "fresh.db");
  CHECK(tables_on_disk(migrated.connection()) == tables_on_disk(fresh.connection()));
}

TEST_CASE("a SELECT list is made from a table's current columns, less those left out", "[store_schema]") {
  CHECK(store::select_list("slurm_lost") == "submission, times");
  CHECK(store::select_list("queue_turns", {"turn"}) == "lane, account");
  // Columns a version dropped are not selected.
  CHECK(store::select_list("case_results").find("median_ms") == std::string::npos);
  CHECK(store::select_list("case_results").find("timing") != std::string::npos);
  CHECK_THROWS_AS(store::select_list("no_such_table"), std::logic_error);
}

TEST_CASE("no source of the judge but the schema ladder creates, alters or drops a table or an index",
          "[store_schema]") {
  const fs::path judge_sources = fs::path(JUDGE_SOURCE_DIR) / "judge";
  const fs::path ladder = judge_sources / "store" / "store_schema.cpp";
  REQUIRE(fs::exists(ladder));
  std::vector<std::string> offenders;
  std::size_t scanned = 0;
  for (const auto& entry : fs::recursive_directory_iterator(judge_sources)) {
    const std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".hpp")) continue;
    ++scanned;
    // The code, not its comments (which may say what the ladder does).
    std::ifstream in(entry.path());
    std::string upper, line;
    while (std::getline(in, line)) upper += line.substr(0, line.find("//")) + "\n";
    std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return std::toupper(c); });
    const bool has_ddl =
        upper.find("CREATE TABLE") != std::string::npos || upper.find("ALTER TABLE") != std::string::npos ||
        upper.find("CREATE INDEX") != std::string::npos || upper.find("DROP TABLE") != std::string::npos;
    if (has_ddl && entry.path() != ladder) offenders.push_back(entry.path().string());
  }
  CHECK(scanned > 100); // the scan saw the judge's sources, not an empty folder
  CAPTURE(offenders);
  CHECK(offenders.empty());
}
