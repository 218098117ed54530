#include "catch.hpp"
#include "previous_store.hpp"
#include "judge/store/results_db.hpp"
#include "results_fixtures.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iterator>
#include <mutex>
#include <thread>

using namespace judge;
using judge::testing::accepted_result;
using judge_test::temp_folder;
using judge::testing::wrong_result;

namespace {

std::int64_t count_rows(results_db& db, const std::string& sql) {
  sqlite::statement st = db.connection().prepare(sql);
  REQUIRE(st.step());
  return st.get_int(0);
}

std::string pragma_text(sqlite::database& db, const std::string& pragma) {
  sqlite::statement st = db.prepare("PRAGMA " + pragma);
  REQUIRE(st.step());
  return st.get_text(0);
}

void check_same_case(const case_result& got, const case_result& want) {
  CAPTURE(want.name);
  CHECK(got.name == want.name);
  CHECK(got.hidden == want.hidden);
  CHECK(got.shape == want.shape);
  CHECK(got.sizes == want.sizes);
  CHECK(got.v == want.v);
  CHECK(got.message == want.message);
  CHECK(got.speed == want.speed);
  CHECK(got.baseline_speed == want.baseline_speed);
  CHECK(got.pct_of_baseline == want.pct_of_baseline);
  CHECK(got.pct_of_peak == want.pct_of_peak);
  CHECK(got.flops == want.flops);
  CHECK(got.bytes == want.bytes);
  CHECK(got.feedback == want.feedback);
  CHECK(got.implausible == want.implausible);
  REQUIRE(got.timing.has_value() == want.timing.has_value());
  if (want.timing) {
    CHECK(got.timing->median_ms == want.timing->median_ms);
    CHECK(got.timing->min_ms == want.timing->min_ms);
    CHECK(got.timing->max_ms == want.timing->max_ms);
    CHECK(got.timing->noise == want.timing->noise);
    CHECK(got.timing->precision == want.timing->precision);
    CHECK(got.timing->samples == want.timing->samples);
    CHECK(got.timing->discarded == want.timing->discarded);
    CHECK(got.timing->host_median_ms == want.timing->host_median_ms);
    CHECK(got.timing->sm_clock_mhz == want.timing->sm_clock_mhz);
    CHECK(got.timing->method == want.timing->method);
    CHECK(got.timing->cold_l2 == want.timing->cold_l2);
    CHECK(got.timing->stop_reason == want.timing->stop_reason);
    CHECK(got.timing->warmup_calls == want.timing->warmup_calls);
    CHECK(got.timing->launches == want.timing->launches);
  }
  CHECK(got.sanitizer == want.sanitizer);
  REQUIRE(got.baseline_timing.has_value() == want.baseline_timing.has_value());
  if (want.baseline_timing) {
    // Whole since the timing is stored by the record's codec (before: the median and the noise only).
    CHECK(got.baseline_timing->median_ms == want.baseline_timing->median_ms);
    CHECK(got.baseline_timing->noise == want.baseline_timing->noise);
    CHECK(got.baseline_timing->samples == want.baseline_timing->samples);
    CHECK(got.baseline_timing->method == want.baseline_timing->method);
  }
}

void check_same_result(const solution_result& got, const solution_result& want) {
  CAPTURE(want.author);
  CHECK(got.problem == want.problem);
  CHECK(got.path == want.path);
  CHECK(got.author == want.author);
  CHECK(got.content_hash == want.content_hash);
  CHECK(got.graded_at == want.graded_at);
  CHECK(got.v == want.v);
  CHECK(got.message == want.message);
  CHECK(got.compile_output == want.compile_output);
  CHECK(got.learner_output == want.learner_output);
  CHECK(got.score == want.score);
  CHECK(got.speed_unit == want.speed_unit);
  CHECK(got.device.name == want.device.name);
  CHECK(got.device.cc == want.device.cc);
  CHECK(got.device.sms == want.device.sms);
  CHECK(got.device.l2_bytes == want.device.l2_bytes);
  CHECK(got.device.clock_max_mhz == want.device.clock_max_mhz);
  CHECK(got.device.fp32_peak_gflops == want.device.fp32_peak_gflops);
  CHECK(got.device.measured_bandwidth_gbps == want.device.measured_bandwidth_gbps);
  CHECK(got.device.dram_peak_gbps == want.device.dram_peak_gbps);
  CHECK(got.sandbox == want.sandbox);
  CHECK(got.implausible == want.implausible);
  CHECK(got.kernels == want.kernels);
  CHECK(got.hints == want.hints);
  REQUIRE(got.cases.size() == want.cases.size());
  for (std::size_t k = 0; k < want.cases.size(); ++k) check_same_case(got.cases[k], want.cases[k]);
}

/// A result whose cases are many, so that a writer spends most of its time inside a transaction.
solution_result long_result(int n, int cases) {
  solution_result r = accepted_result(fmt::format("writer{}", n % 7), 1000 + n);
  while (static_cast<int>(r.cases.size()) < cases) r.cases.push_back(r.cases[1]);
  for (std::size_t k = 0; k < r.cases.size(); ++k) r.cases[k].name = fmt::format("case_{}", k);
  return r;
}

} // namespace

TEST_CASE("a recorded result reads back field for field", "[results_db]") {
  temp_folder dir;
  results_db db(dir / "judge.db");
  solution_result ac = accepted_result("alice", 12345.5);
  ac.cases[2].feedback = "solve() takes far longer on the host";
  ac.kernels = {{"matmul_tiled(float const*, float const*, float*, int, int, int)", "sm_90", 43, 8192, 16, 8, 4},
                {"tail", "sm_90", 12, 0, 0, 0, 0}};
  ac.hints = {{"spills", "fewer values per thread", "matmul_tiled: 8 bytes spill stores"}};
  judge_wire::kernel_launch launch;
  launch.name = "matmul_tiled(float const*, float const*, float*, int, int, int)";
  launch.grid[0] = 64;
  launch.grid[1] = 32;
  launch.grid[2] = 1;
  launch.block[0] = 256;
  launch.block[1] = launch.block[2] = 1;
  launch.dynamic_shared_bytes = 1024;
  launch.static_shared_bytes = 8192;
  launch.registers = 43;
  REQUIRE(ac.cases[1].timing);
  ac.cases[1].timing->launches = {launch, launch};
  ac.cases[1].timing->launches[1].grid[0] = 1;
  solution_result wa = wrong_result("bob");
  wa.compile_output = "warning: unused variable 'x'";
  sanitizer_run memcheck;
  memcheck.errors = 1;
  memcheck.seconds = 7.5;
  sanitizer_finding write;
  write.kind = sanitizer_error_kind::invalid_access;
  write.access = access_kind::write;
  write.at = {"mine.cu", 21};
  write.block = std::array<int, 3>{3, 0, 0};
  write.buffer = "C";
  write.relation = buffer_relation::after;
  memcheck.findings = {write};
  wa.cases[1].sanitizer = {memcheck};
  const std::int64_t first = db.record(ac);
  const std::int64_t second = db.record(wa);
  CHECK(second > first);

  const auto all = db.results_for("matmul");
  REQUIRE(all.size() == 2);
  check_same_result(all[0], ac);
  check_same_result(all[1], wa);
  CHECK(db.results_for("vector_add").empty());

  const auto history = db.history("bob");
  REQUIRE(history.size() == 1);
  check_same_result(history[0], wa);
}

TEST_CASE("an implausible result reads back with the figures that flagged it", "[results_db]") {
  temp_folder dir;
  results_db db(dir / "judge.db");
  const solution_result flagged = judge::testing::implausible_result("mallory", 900000);
  REQUIRE(flagged.cases[2].implausible);
  db.record(flagged);
  const auto all = db.results_for("matmul");
  REQUIRE(all.size() == 1);
  check_same_result(all[0], flagged);
  CHECK_FALSE(all[0].cases[1].implausible);
}

TEST_CASE("an implausible result is never an author's best, however high its score", "[results_db]") {
  temp_folder dir;
  results_db db(dir / "judge.db");
  db.record(accepted_result("mallory", 9000));
  db.record(judge::testing::implausible_result("mallory", 900000));
  db.record(judge::testing::implausible_result("trent", 800000));
  const auto best = db.best_accepted("matmul");
  REQUIRE(best.size() == 1);
  CHECK(best[0].author == "mallory");
  CHECK(best[0].score == 9000);
  const auto flagged = db.implausible_accepted("matmul");
  REQUIRE(flagged.size() == 2);
  CHECK(flagged[0].score == 900000);
  CHECK(flagged[1].author == "trent");
}

TEST_CASE("a new store is created with its folders, WAL mode and the current schema version", "[results_db]") {
  temp_folder dir;
  const auto path = dir / "results/nested/judge.db";
  results_db db(path);
  CHECK(std::filesystem::exists(path));
  CHECK(results_db::schema_version() == 10);
  CHECK(pragma_text(db.connection(), "user_version") == "10");
  CHECK(pragma_text(db.connection(), "journal_mode") == "wal");
  CHECK(pragma_text(db.connection(), "foreign_keys") == "1");
  CHECK(pragma_text(db.connection(), "busy_timeout") == "10000");
}

TEST_CASE("reopening a store keeps its results", "[results_db]") {
  temp_folder dir;
  {
    results_db db(dir / "judge.db");
    db.record(accepted_result("alice", 100));
    db.record(accepted_result("bob", 200));
  }
  results_db again(dir / "judge.db");
  const auto all = again.results_for("matmul");
  REQUIRE(all.size() == 2);
  CHECK(all[0].author == "alice");
  CHECK(all[1].author == "bob");
  CHECK(all[1].cases.size() == 3);
  CHECK(pragma_text(again.connection(), "user_version") == std::to_string(results_db::schema_version()));
}

TEST_CASE("a version 1 store is migrated on open and keeps its results", "[results_db]") {
  temp_folder dir;
  {
    // The version 1 schema as the judge wrote it, one result in it: a timed case and an untimed one.
    sqlite::database raw(dir / "judge.db");
    raw.exec(judge::testing::previous_store::hand_written_version_1);
    raw.exec("INSERT INTO submissions (problem, path, author, content_hash, graded_at, device_name, device_cc, "
             "device_sms, device_l2_bytes, verdict, message, score, speed_unit, compile_output, learner_output) "
             "VALUES ('matmul', 'a.cu', 'alice', 'h', '2024-01-01T00:00:00Z', 'NVIDIA H200', '9.0', 132, 1, "
             "'AC', '', 100, 'GFLOPS', '', '');"
             "INSERT INTO case_results (submission_id, idx, name, hidden, shape, sizes, verdict, message, feedback) "
             "VALUES (1, 0, 'sample', 0, '2x2x2', '[2,2,2]', 'AC', '', '');"
             "INSERT INTO case_results (submission_id, idx, name, hidden, shape, sizes, verdict, message, median_ms, "
             "samples, discarded, method, cold_l2, feedback) VALUES (1, 1, 'square', 1, '64x64x64', '[64,64,64]', "
             "'AC', '', 0.5, 10, 0, 'events', 0, '')");
    raw.exec("PRAGMA user_version = 1");
  }
  results_db db(dir / "judge.db");
  CHECK(pragma_text(db.connection(), "user_version") == std::to_string(results_db::schema_version()));
  solution_result newer = accepted_result("bob", 200);
  db.record(newer);
  const auto all = db.results_for("matmul");
  REQUIRE(all.size() == 2);
  CHECK(all[0].author == "alice");
  CHECK(all[0].score == 100);
  REQUIRE(all[0].cases.size() == 2);
  CHECK(all[0].device.dram_peak_gbps == 0);  // unknown before version 2
  CHECK(all[0].sandbox == sandbox_status{}); // not recorded before version 2
  CHECK_FALSE(all[0].cases[0].timing);
  REQUIRE(all[0].cases[1].timing.has_value());
  CHECK(all[0].cases[1].timing->median_ms == 0.5);
  CHECK(all[0].cases[1].timing->method == "events");
  CHECK_FALSE(all[0].cases[1].timing->cold_l2);
  CHECK(all[0].cases[1].timing->precision == 0); // not recorded before version 3
  CHECK_FALSE(all[0].implausible);               // not flagged before version 3
  CHECK(all[0].cases[0].sanitizer.empty());      // none before version 5
  CHECK(all[0].case_set.empty());                // unknown before version 9
  CHECK(all[0].sanitizer.state == explanation_state::none); // nothing explained apart before version 10
  check_same_result(all[1], newer);
}

TEST_CASE("a file that is not a database is refused by name and left as it is", "[results_db]") {
  temp_folder dir;
  const auto path = dir / "judge.db";
  const std::string text = "grades of 2025, kept as text by mistake\n";
  std::ofstream(path) << text;
  try {
    results_db db(path);
    FAIL("opening a text file as the store should throw");
  } catch (const store_error& e) {
    const std::string what = e.what();
    CAPTURE(what);
    CHECK(what.find(path.string()) != std::string::npos);
    CHECK(what.find("not a results database") != std::string::npos);
  }
  std::ifstream in(path);
  const std::string after((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(after == text);
}

TEST_CASE("a store written by a newer judge is refused, naming both versions", "[results_db]") {
  temp_folder dir;
  {
    sqlite::database raw(dir / "judge.db");
    raw.exec("PRAGMA user_version = 99");
  }
  try {
    results_db db(dir / "judge.db");
    FAIL("opening a version 99 store should throw");
  } catch (const store_error& e) {
    const std::string what = e.what();
    CAPTURE(what);
    CHECK(what.find("judge.db") != std::string::npos);
    CHECK(what.find("99") != std::string::npos);
    CHECK(what.find("newer") != std::string::npos);
  }
}

TEST_CASE("a record that fails midway leaves no half-written submission", "[results_db]") {
  temp_folder dir;
  results_db db(dir / "judge.db");
  db.record(accepted_result("alice", 100));

  solution_result broken = accepted_result("bob", 200);
  broken.cases[2].name = ""; // the schema refuses an unnamed case: the third case insert fails
  try {
    db.record(broken);
    FAIL("recording a case without a name should throw");
  } catch (const sqlite::error& e) {
    const std::string what = e.what();
    CAPTURE(what);
    CHECK(what.find((dir / "judge.db").string()) != std::string::npos);
    CHECK(what.find("INSERT INTO case_results") != std::string::npos);
    CHECK(what.find("CHECK constraint failed") != std::string::npos);
  }
  CHECK(count_rows(db, "SELECT count(*) FROM submissions") == 1);
  CHECK(count_rows(db, "SELECT count(*) FROM case_results") == 3);
  CHECK(db.history("bob").empty());

  SECTION("and the store stays usable") {
    db.record(accepted_result("bob", 200));
    CHECK(count_rows(db, "SELECT count(*) FROM submissions") == 2);
    CHECK(count_rows(db, "SELECT count(*) FROM case_results") == 6);
  }
}

TEST_CASE("a NaN figure is stored and comes back as 0", "[results_db]") {
  temp_folder dir;
  results_db db(dir / "judge.db");
  solution_result r = accepted_result("alice", 100);
  r.cases[0].pct_of_baseline = std::nan("");
  db.record(r);
  const auto all = db.results_for("matmul");
  REQUIRE(all.size() == 1);
  CHECK(all[0].cases[0].pct_of_baseline == 0);
}

TEST_CASE("best_accepted keeps each author's best accepted result on each GPU model", "[results_db]") {
  temp_folder dir;
  results_db db(dir / "judge.db");
  db.record(accepted_result("alice", 100, "NVIDIA H200", "2025-03-01T10:00:00Z"));
  db.record(accepted_result("alice", 300, "NVIDIA H200", "2025-03-02T10:00:00Z"));
  db.record(accepted_result("alice", 300, "NVIDIA H200", "2025-03-03T10:00:00Z")); // a tie: the earlier wins
  db.record(accepted_result("alice", 50, "NVIDIA A100", "2025-03-01T10:00:00Z"));
  db.record(accepted_result("bob", 200, "NVIDIA H200", "2025-03-01T10:00:00Z"));
  db.record(wrong_result("carol"));

  const auto best = db.best_accepted("matmul");
  REQUIRE(best.size() == 3);
  CHECK(best[0].device.name == "NVIDIA A100");
  CHECK(best[0].author == "alice");
  CHECK(best[1].device.name == "NVIDIA H200");
  CHECK(best[1].author == "alice");
  CHECK(best[1].score == 300);
  CHECK(best[1].graded_at == "2025-03-02T10:00:00Z");
  CHECK(best[2].author == "bob");
  CHECK(db.history("alice").size() == 4);
}

TEST_CASE("two stores on one file writing from two threads lose nothing", "[results_db][concurrency]") {
  temp_folder dir;
  const auto path = dir / "judge.db";
  { results_db create(path); } // the schema exists before the race, as after the CLI's first run
  std::mutex error_mutex;
  std::string first_error;
  auto writer = [&](const std::string& author) {
    try {
      results_db db(path);
      for (int i = 0; i < 50; ++i) db.record(accepted_result(author, 100 + i));
    } catch (const std::exception& e) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (first_error.empty()) first_error = e.what();
    }
  };
  std::thread a(writer, "alice"), b(writer, "bob");
  a.join();
  b.join();
  REQUIRE(first_error == "");

  results_db db(path);
  CHECK(count_rows(db, "SELECT count(*) FROM submissions") == 100);
  CHECK(count_rows(db, "SELECT count(*) FROM case_results") == 300);
  CHECK(db.history("alice").size() == 50);
  CHECK(db.history("bob").size() == 50);
}

TEST_CASE("two stores opening a new file at once create its schema once", "[results_db][concurrency]") {
  temp_folder dir;
  const auto path = dir / "judge.db";
  std::mutex error_mutex;
  std::string first_error;
  auto opener = [&] {
    try {
      results_db db(path);
      db.record(accepted_result("alice", 100));
    } catch (const std::exception& e) {
      std::lock_guard<std::mutex> lock(error_mutex);
      if (first_error.empty()) first_error = e.what();
    }
  };
  std::thread a(opener), b(opener);
  a.join();
  b.join();
  CHECK(first_error == "");
  results_db db(path);
  CHECK(count_rows(db, "SELECT count(*) FROM submissions") == 2);
}

TEST_CASE("a writer killed midway leaves the store intact", "[results_db][crash]") {
  constexpr int cases_per_result = 40;
  temp_folder dir;
  const auto path = dir / "judge.db";
  { results_db create(path); } // closed again before fork(): a child must not inherit a connection

  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    // The child only writes; no Catch2 and no exit handlers here.
    try {
      results_db db(path);
      for (int n = 0;; ++n) db.record(long_result(n, cases_per_result));
    } catch (...) {
      ::_exit(3);
    }
  }

  // Let it commit a few results, then kill it wherever it is (most likely inside a transaction).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  std::int64_t seen = 0;
  {
    results_db watcher(path);
    while (seen < 20 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      seen = count_rows(watcher, "SELECT count(*) FROM submissions");
    }
  }
  ::kill(child, SIGKILL);
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  CAPTURE(seen);
  REQUIRE(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGKILL);
  REQUIRE(seen >= 20);

  results_db db(path);
  CHECK(pragma_text(db.connection(), "integrity_check") == "ok");
  CHECK(count_rows(db, "SELECT count(*) FROM pragma_foreign_key_check") == 0);
  CHECK(count_rows(db, fmt::format("SELECT count(*) FROM submissions s WHERE (SELECT count(*) FROM case_results c "
                                   "WHERE c.submission_id = s.id) <> {}",
                                   cases_per_result)) == 0);
  const auto all = db.results_for("matmul");
  CHECK(static_cast<std::int64_t>(all.size()) >= seen);
  for (const solution_result& r : all) CHECK(static_cast<int>(r.cases.size()) == cases_per_result);
  db.record(accepted_result("after", 1)); // and it still takes writes
}

TEST_CASE("a result keeps the version of the cases it was graded on", "[results_db]") {
  temp_folder dir;
  results_db db(dir / "judge.db");
  solution_result graded = accepted_result("alice", 100);
  graded.case_set = "0123456789ab";
  db.record(graded);
  db.record(accepted_result("bob", 200)); // graded before versions were kept: unknown
  const auto all = db.results_for("matmul");
  REQUIRE(all.size() == 2);
  CHECK(all[0].case_set == "0123456789ab");
  CHECK(all[1].case_set.empty());
  CHECK(db.best_accepted("matmul")[0].case_set.empty());
}

TEST_CASE("a result's explanation reads back, and one that came after it replaces its pending plan and runs",
          "[results_db]") {
  temp_folder dir;
  results_db db(dir / "judge.db");
  const std::int64_t pending = db.record(judge::testing::explained_result("alice", false));
  db.record(wrong_result("bob"));
  auto all = db.results_for("matmul");
  REQUIRE(all.size() == 2);
  CHECK(all[0].sanitizer == judge::testing::explained_result("alice", false).sanitizer);
  CHECK(all[0].cases[1].sanitizer.empty());
  CHECK(all[1].sanitizer.state == explanation_state::none);

  const solution_result explained = judge::testing::explained_result("alice", true);
  {
    sqlite::transaction tx(db.connection());
    db.record_explanation_within(tx, pending, explained);
    tx.commit();
  }
  all = db.results_for("matmul");
  CHECK(all[0].sanitizer.state == explanation_state::done);
  REQUIRE(all[0].cases[1].sanitizer.size() == 1);
  CHECK(all[0].cases[1].sanitizer == explained.cases[1].sanitizer);
  CHECK(all[0].v == verdict::run_time_error); // the rest as it was recorded
  CHECK(all[0].learner_output == explained.learner_output);
  CHECK(all[1].cases[1].sanitizer.empty()); // another result is left alone
}
