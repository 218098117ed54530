#include "catch.hpp"
#include "temp_folder.hpp"

#include "judge/grading/baseline_cache.hpp"
#include "judge/problem/cases.hpp"
#include "judge/problem/problem.hpp"
#include "judge/base/file_input.hpp"
#include "judge/record/record_json.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <stdlib.h>

namespace fs = std::filesystem;
using judge::baseline_record;

namespace {
baseline_record sample_record() {
  baseline_record r;
  r.outputs[{0, 0}]["C"] = {1.5f, -2.25f, 3.0f};
  r.outputs[{0, 1}]["C"] = {4.0f};
  r.outputs[{3, 1}]["C"] = {};
  r.disagreeing_cases = {3};
  judge::timing_summary t;
  t.median_ms = 0.0298;
  t.min_ms = 0.0291;
  t.max_ms = 0.031;
  t.noise = 0.004;
  t.precision = 0.0011;
  t.samples = 96;
  t.discarded = 1;
  t.host_median_ms = 0.05;
  t.sm_clock_mhz = 1980;
  t.method = "cupti";
  t.stop_reason = "precision";
  t.warmup_calls = 7;
  r.timings["aligned"] = t;
  return r;
}

void set_timed_at(const fs::path& entry, long long seconds) {
  auto j = nlohmann::json::parse(judge::read_file(entry / "record.json"));
  j["timed_at"] = seconds;
  std::ofstream(entry / "record.json") << j.dump();
}
} // namespace

TEST_CASE("a kept baseline run comes back whole: outputs, disagreeing cases and every timing field",
          "[baseline_cache]") {
  judge_test::temp_folder dir;
  REQUIRE(judge::store_baseline(dir.path(), "k1", sample_record()));
  const auto loaded = judge::load_baseline(dir.path(), "k1", judge::baseline_max_age);
  REQUIRE(loaded);
  const baseline_record expected = sample_record();
  CHECK(loaded->record.outputs == expected.outputs);
  CHECK(loaded->record.disagreeing_cases == expected.disagreeing_cases);
  REQUIRE(loaded->record.timings.count("aligned") == 1);
  const auto& t = loaded->record.timings.at("aligned");
  const auto& e = expected.timings.at("aligned");
  CHECK(t.median_ms == e.median_ms);
  CHECK(t.precision == e.precision);
  CHECK(t.samples == e.samples);
  CHECK(t.discarded == e.discarded);
  CHECK(t.method == e.method);
  CHECK(t.stop_reason == e.stop_reason);
  CHECK(t.warmup_calls == e.warmup_calls);
  CHECK(loaded->timed_at > 0);
  // Another key is another entry: nothing comes back for it.
  CHECK_FALSE(judge::load_baseline(dir.path(), "k2", judge::baseline_max_age));
}

TEST_CASE("a kept baseline older than its age, or damaged, is not used", "[baseline_cache]") {
  judge_test::temp_folder dir;
  REQUIRE(judge::store_baseline(dir.path(), "k", sample_record()));
  const fs::path entry = dir.path() / "baseline-k";
  SECTION("older than max_age") {
    set_timed_at(entry, static_cast<long long>(std::time(nullptr)) - 7200);
    CHECK_FALSE(judge::load_baseline(dir.path(), "k", std::chrono::seconds(3600)));
    CHECK(judge::load_baseline(dir.path(), "k", std::chrono::seconds(10000)));
  }
  SECTION("timed in the future (a clock set back)") {
    set_timed_at(entry, static_cast<long long>(std::time(nullptr)) + 7200);
    CHECK_FALSE(judge::load_baseline(dir.path(), "k", judge::baseline_max_age));
  }
  SECTION("outputs cut short") {
    fs::resize_file(entry / "outputs.f32", 8);
    CHECK_FALSE(judge::load_baseline(dir.path(), "k", judge::baseline_max_age));
  }
  SECTION("a record that is not JSON") {
    std::ofstream(entry / "record.json") << "{not json";
    CHECK_FALSE(judge::load_baseline(dir.path(), "k", judge::baseline_max_age));
  }
  SECTION("stored again: the new run replaces the old") {
    baseline_record changed = sample_record();
    changed.timings["aligned"].median_ms = 1.0;
    REQUIRE(judge::store_baseline(dir.path(), "k", changed));
    const auto loaded = judge::load_baseline(dir.path(), "k", judge::baseline_max_age);
    REQUIRE(loaded);
    CHECK(loaded->record.timings.at("aligned").median_ms == 1.0);
    // No staging folder is left behind.
    int entries = 0;
    for (const auto& e : fs::directory_iterator(dir.path())) entries += e.path().filename() == "baseline-k" ? 1 : 100;
    CHECK(entries == 1);
  }
}

TEST_CASE("a kept baseline writes its timings with the record's codec, and an entry of format 1 still reads",
          "[baseline_cache]") {
  judge_test::temp_folder dir;
  REQUIRE(judge::store_baseline(dir.path(), "k", sample_record()));
  const fs::path entry = dir.path() / "baseline-k";
  auto j = nlohmann::json::parse(judge::read_file(entry / "record.json"));
  // The same field names as the --json report and the queue's results: one codec.
  CHECK(j.at("timings").at("aligned") == judge::timing_json(sample_record().timings.at("aligned")));
  // What the judge before the record's codec wrote: format 1, the throttled samples as "discarded".
  j["format"] = 1;
  auto& t = j["timings"]["aligned"];
  t["discarded"] = t.at("discarded_throttled");
  t.erase("discarded_throttled");
  std::ofstream(entry / "record.json") << j.dump();
  const auto loaded = judge::load_baseline(dir.path(), "k", judge::baseline_max_age);
  REQUIRE(loaded);
  CHECK(loaded->record.timings.at("aligned").discarded == 1);
  CHECK(loaded->record.timings.at("aligned").warmup_calls == 7);
  SECTION("a format this judge does not know is not used") {
    j["format"] = 99;
    std::ofstream(entry / "record.json") << j.dump();
    CHECK_FALSE(judge::load_baseline(dir.path(), "k", judge::baseline_max_age));
  }
}

TEST_CASE("baseline outputs above the cap are not kept", "[baseline_cache]") {
  judge_test::temp_folder dir;
  baseline_record big;
  big.outputs[{0, 0}]["y"] = std::vector<float>(257);
  CHECK_FALSE(judge::store_baseline(dir.path(), "big", big, 1024));
  CHECK_FALSE(judge::load_baseline(dir.path(), "big", judge::baseline_max_age));
  big.outputs[{0, 0}]["y"].resize(256);
  CHECK(judge::store_baseline(dir.path(), "big", big, 1024));
  CHECK(judge::load_baseline(dir.path(), "big", judge::baseline_max_age));
}

TEST_CASE("every problem's baseline outputs fit the cache, so no problem's baseline runs in every judge run",
          "[baseline_cache]") {
  const std::filesystem::path root = JUDGE_SOURCE_DIR;
  for (const auto& entry : std::filesystem::directory_iterator(root / "problems")) {
    if (!entry.is_directory()) continue;
    const judge::problem_spec spec = judge::load_problem(entry.path());
    if (!spec.baseline.is_reference) continue; // only a reference's outputs are kept
    const auto cases = judge::load_cases(spec, root / "testcases" / spec.name / "cases.yaml");
    std::uintmax_t bytes = 0;
    for (const judge::test_case& c : cases) {
      if (c.robustness()) continue; // the baseline runs only the cases that decide
      const auto counts = judge::buffer_counts(spec, c);
      for (const judge::parameter* p : spec.buffers())
        if (p->is_result()) bytes += 2 * static_cast<std::uintmax_t>(counts.at(p->name)) * sizeof(float);
    }
    INFO(spec.name << ": " << (bytes >> 20) << " MiB of baseline outputs");
    CHECK(bytes <= judge::baseline_cache_output_cap);
  }
}

TEST_CASE("a baseline folder that cannot be written keeps nothing and throws nothing", "[baseline_cache]") {
  judge_test::temp_folder dir;
  std::ofstream(dir.path() / "file") << "x";
  CHECK_FALSE(judge::store_baseline(dir.path() / "file" / "below", "k", sample_record()));
}
