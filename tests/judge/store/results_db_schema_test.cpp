#include "catch.hpp"
#include "judge/record/record_json.hpp"
#include "judge/sanitizer/sanitizer_json.hpp"
#include "judge/store/results_db.hpp"
#include "judge/store/store_schema.hpp"
#include "previous_store.hpp"
#include "results_fixtures.hpp"

#include <filesystem>
#include <string>
#include <vector>

using namespace judge;
using judge::testing::accepted_result;
using judge_test::temp_folder;

namespace {

using namespace judge::testing::previous_store;

std::string stored_sandbox(results_db& db, std::int64_t id) {
  sqlite::statement st = db.connection().prepare("SELECT sandbox FROM submissions WHERE id = ?1");
  st.bind(1, id);
  REQUIRE(st.step());
  return st.get_text(0);
}

} // namespace

TEST_CASE("a store made by the hand-written statements is read and written as before", "[results_db]") {
  temp_folder dir;
  {
    sqlite::database by_hand(dir / "judge.db");
    by_hand.exec(hand_written_version_1);
    by_hand.exec(hand_written_version_2);
    by_hand.exec("PRAGMA user_version = 2");
  }
  results_db db(dir / "judge.db");
  const solution_result r = accepted_result("alice", 100);
  db.record(r);
  const auto all = db.results_for("matmul");
  REQUIRE(all.size() == 1);
  CHECK(all[0].author == "alice");
  CHECK(all[0].cases.size() == r.cases.size());
  CHECK(all[0].cases[1].timing.has_value() == r.cases[1].timing.has_value());
}

TEST_CASE("a version 3 store opens and its results read back with no kernels, launches or hints", "[results_db]") {
  temp_folder dir;
  {
    sqlite::database by_hand(dir / "judge.db");
    by_hand.exec(hand_written_version_1);
    by_hand.exec(hand_written_version_2);
    by_hand.exec(hand_written_version_3);
    by_hand.exec("INSERT INTO submissions (problem, path, author, content_hash, graded_at, device_name, device_cc, "
                 "device_sms, device_l2_bytes, verdict, message, speed_unit, compile_output, learner_output) "
                 "VALUES ('matmul', 'a.cu', 'alice', 'h', '2024-01-01T00:00:00Z', 'NVIDIA H200', '9.0', 132, 1, "
                 "'AC', '', 'GFLOPS', '', '')");
    by_hand.exec("INSERT INTO case_results (submission_id, idx, name, hidden, shape, sizes, verdict, message, "
                 "median_ms, samples, feedback) VALUES (1, 0, 'square', 1, '64x64x64', '[64,64,64]', 'AC', '', 0.5, "
                 "10, '')");
    by_hand.exec("PRAGMA user_version = 3");
  }
  results_db db(dir / "judge.db");
  const auto all = db.results_for("matmul");
  REQUIRE(all.size() == 1);
  CHECK(all[0].kernels.empty());
  CHECK(all[0].hints.empty());
  REQUIRE(all[0].cases.size() == 1);
  REQUIRE(all[0].cases[0].timing.has_value());
  CHECK(all[0].cases[0].timing->launches.empty());
}

namespace {

/// A version 5 store by hand (the judge before the record's codec) holding one submission whose sandbox
/// column says `sandbox`, with a timed case (every timing column set, and the baseline's two) and an
/// untimed one.
void previous_store_with(const std::filesystem::path& file, const std::string& sandbox) {
  sqlite::database by_hand(file);
  for (const char* sql : all) by_hand.exec(sql);
  by_hand
      .prepare("INSERT INTO submissions (problem, path, author, content_hash, graded_at, device_name, device_cc, "
               "device_sms, device_l2_bytes, verdict, message, speed_unit, compile_output, learner_output, sandbox) "
               "VALUES ('matmul', 'a.cu', 'alice', 'h', '2024-01-01T00:00:00Z', 'NVIDIA H200', '9.0', 132, 1, "
               "'AC', '', 'GFLOPS', '', '', ?1)")
      .bind(1, sandbox)
      .run();
  by_hand.exec("INSERT INTO case_results (submission_id, idx, name, hidden, shape, sizes, verdict, message, median_ms, "
               "min_ms, max_ms, noise, precision, samples, discarded, host_median_ms, sm_clock_mhz, method, cold_l2, "
               "baseline_median_ms, baseline_noise, feedback) VALUES (1, 0, 'square', 1, '64x64x64', '[64,64,64]', "
               "'AC', '', 0.5, 0.4, 0.7, 0.01, 0.002, 96, 3, 0.6, 1980, 'cupti', 1, 0.25, 0.02, '');"
               "INSERT INTO case_results (submission_id, idx, name, hidden, shape, sizes, verdict, message, feedback) "
               "VALUES (1, 1, 'sample', 0, '2x2x2', '[2,2,2]', 'AC', '', '')");
}

} // namespace

TEST_CASE("a store of the judge before the record's codec opens with every timing figure as it was", "[results_db]") {
  temp_folder dir;
  previous_store_with(dir / "judge.db", "on; all layers");
  results_db db(dir / "judge.db");
  const auto all = db.results_for("matmul");
  REQUIRE(all.size() == 1);
  REQUIRE(all[0].cases.size() == 2);
  const case_result& timed = all[0].cases[0];
  REQUIRE(timed.timing);
  CHECK(timed.timing->median_ms == 0.5);
  CHECK(timed.timing->min_ms == 0.4);
  CHECK(timed.timing->max_ms == 0.7);
  CHECK(timed.timing->noise == 0.01);
  CHECK(timed.timing->precision == 0.002);
  CHECK(timed.timing->samples == 96);
  CHECK(timed.timing->discarded == 3);
  CHECK(timed.timing->host_median_ms == 0.6);
  CHECK(timed.timing->sm_clock_mhz == 1980);
  CHECK(timed.timing->method == "cupti");
  CHECK(timed.timing->cold_l2);
  REQUIRE(timed.baseline_timing);
  CHECK(timed.baseline_timing->median_ms == 0.25);
  CHECK(timed.baseline_timing->noise == 0.02);
  CHECK_FALSE(all[0].cases[1].timing);
  CHECK_FALSE(all[0].cases[1].baseline_timing);
  CHECK(all[0].sandbox == sandbox_status{sandbox_mode::on, ""});
}

TEST_CASE("each sandbox state the store held as words comes back the same after the migration", "[results_db]") {
  sandbox_status partly{sandbox_mode::on, ""};
  partly.layers.set_missing(sandbox_layer::cgroup, "cgroup v2 is not mounted");
  partly.layers.set_missing(sandbox_layer::private_root, "mounting /proc: Operation not permitted");
  sandbox_status before_layers{sandbox_mode::on, ""}; // "on" alone: stored before the layers existed
  for (sandbox_layer layer : {sandbox_layer::pid_namespace, sandbox_layer::private_root, sandbox_layer::cgroup})
    before_layers.layers.set_missing(layer, "not part of the sandbox when this was graded");
  const auto [words, state] = GENERATE_COPY(table<std::string, sandbox_status>({
      {"", {sandbox_mode::not_run, ""}},
      {"on; all layers", {sandbox_mode::on, ""}},
      {"on; no private-root: mounting /proc: Operation not permitted; no cgroup: cgroup v2 is not mounted", partly},
      {"on", before_layers},
      {"off", {sandbox_mode::off, ""}},
      {"unavailable: unshare: Operation not permitted",
       {sandbox_mode::unavailable, "unshare: Operation not permitted"}},
  }));
  CAPTURE(words);
  temp_folder dir;
  previous_store_with(dir / "judge.db", words);
  results_db db(dir / "judge.db");
  CHECK(db.history("alice").back().sandbox == state);
}

TEST_CASE("the sandbox state is stored by the record's codec, as facts, and reads back", "[results_db]") {
  temp_folder dir;
  results_db db(dir / "judge.db");
  sandbox_status partly{sandbox_mode::on, ""};
  partly.layers.set_missing(sandbox_layer::cgroup, "cgroup v2 is not mounted");
  const auto state =
      GENERATE_COPY(values<sandbox_status>({{sandbox_mode::not_run, ""},
                                            {sandbox_mode::on, ""},
                                            partly,
                                            {sandbox_mode::off, ""},
                                            {sandbox_mode::unavailable, "unshare: Operation not permitted"}}));
  solution_result r = accepted_result("alice", 100);
  r.sandbox = state;
  const std::string stored = stored_sandbox(db, db.record(r));
  CAPTURE(stored);
  CHECK(nlohmann::json::parse(stored) == sandbox_json(state));
  CHECK(db.history("alice").back().sandbox == state);
}

TEST_CASE("a store holding a sandbox state in words no judge wrote says so and names the file", "[results_db]") {
  temp_folder dir;
  previous_store_with(dir / "judge.db", "sideways");
  CHECK_THROWS_WITH(results_db(dir / "judge.db"), Catch::Matchers::Contains("unknown sandbox state 'sideways'") &&
                                                      Catch::Matchers::Contains("judge.db"));
}

namespace {

/// The store the judge before explanations were kept apart (schema version 9) left, with one result
/// whose case `runs_on` ("" for none) holds memcheck's run of an inline explanation, of verdict `verdict`,
/// and a queued submission done with that result.
void version_9_store(const std::filesystem::path& file, const std::string& verdict, const std::string& runs_on) {
  sqlite::database db(file);
  {
    sqlite::transaction tx(db);
    store::climb(db, 0, 9);
    tx.commit();
  }
  db.exec("PRAGMA user_version = 9");
  db.prepare("INSERT INTO submissions (problem, path, author, content_hash, graded_at, device_name, device_cc, "
             "device_sms, device_l2_bytes, verdict, message, speed_unit, compile_output, learner_output, sandbox) "
             "VALUES ('matmul', 'a.cu', 'alice', 'h', '2026-12-01T00:00:00Z', 'NVIDIA H200', '9.0', 132, 1, ?1, '', "
             "'GFLOPS', '', '', ?2)")
      .bind(1, verdict)
      .bind(2, sandbox_json({}).dump())
      .run();
  sqlite::statement add_case = db.prepare(
      "INSERT INTO case_results (submission_id, idx, name, hidden, shape, sizes, verdict, message, feedback, "
      "sanitizer) VALUES (1, ?1, ?2, 1, '8', '[8]', ?3, '', '', ?4)");
  int idx = 0;
  for (const std::string name : {"sample_8", "n_1001"}) {
    const bool ran = name == runs_on;
    add_case.bind(1, idx++).bind(2, name).bind(3, ran ? verdict : std::string("AC"));
    add_case.bind(4, sanitizer_json(ran ? std::vector<sanitizer_run>{judge::testing::memcheck_finding()}
                                        : std::vector<sanitizer_run>{})
                         .dump());
    add_case.run();
    add_case.reset();
  }
  db.exec("INSERT INTO queued_submissions (account, problem, files, state, submitted_at, result_id, result) VALUES "
          "('alice', 'matmul', '[]', 'done', '2026-12-01T00:00:00Z', 1, '{}')");
}

std::string queued_sanitizer_state(results_db& db) {
  sqlite::statement st = db.connection().prepare("SELECT sanitizer_state, sanitizer_worker FROM queued_submissions");
  REQUIRE(st.step());
  return st.get_text(0) + "|" + st.get_text(1);
}

} // namespace

TEST_CASE("a store of the previous schema version gets the explanation its inline runs stood for", "[results_db]") {
  temp_folder dir;
  version_9_store(dir / "judge.db", "RTE", "n_1001");
  results_db db(dir / "judge.db");
  CHECK(results_db::schema_version() == 10);
  const auto all = db.results_for("matmul");
  REQUIRE(all.size() == 1);
  CHECK(all[0].sanitizer.state == explanation_state::done);
  CHECK(all[0].sanitizer.case_name == "n_1001");
  CHECK(all[0].sanitizer.tools == std::vector<sanitizer_tool>{sanitizer_tool::memcheck});
  REQUIRE(all[0].cases.size() == 2);
  CHECK(all[0].cases[1].sanitizer == std::vector<sanitizer_run>{judge::testing::memcheck_finding()});
  // The queue's documents never held runs: nothing is pending, and no worker holds anything.
  CHECK(queued_sanitizer_state(db) == "|");
}

TEST_CASE("a store of the previous schema version keeps no explanation where its runs explained nothing apart",
          "[results_db]") {
  const auto [verdict, runs_on] = GENERATE(table<std::string, std::string>({
      {"RTE", ""},      // nothing ran
      {"AC", "n_1001"}, // --sanitize of an accepted solution, one case asked for
  }));
  CAPTURE(verdict, runs_on);
  temp_folder dir;
  version_9_store(dir / "judge.db", verdict, runs_on);
  results_db db(dir / "judge.db");
  const auto all = db.results_for("matmul");
  REQUIRE(all.size() == 1);
  CHECK(all[0].sanitizer.state == explanation_state::none);
}
