#include "catch.hpp"
#include "results_fixtures.hpp"

#include "judge/record/record_json.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

using namespace judge;
using judge::testing::accepted_result;
using judge::testing::implausible_result;
using judge::testing::wrong_result;

namespace {
std::string error_of(const nlohmann::json& j) {
  try {
    record_from_json(j);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

/// A result with every fact the codec carries set: kernels, hints, launches, a partial sandbox.
solution_result full_result() {
  solution_result r = accepted_result("alice", 15000);
  r.sandbox = {sandbox_mode::on, ""};
  r.sandbox.layers.set_missing(sandbox_layer::cgroup, "cgroup v2 is not mounted (see docs)");
  r.kernels.push_back({"matmul_tiled", "sm_90", 40, 8192, 0, 0, 0});
  r.hints.push_back({"spills", "keep the tile in registers", "matmul_tiled: 0 bytes"});
  for (case_result& c : r.cases)
    if (c.timing) {
      c.timing->stop_reason = "precision";
      c.timing->warmup_calls = 5;
      c.timing->launches.push_back(judge_wire::kernel_launch{"matmul_tiled", {8, 8, 1}, {16, 16, 1}, 2048, 0, 40});
    }
  return r;
}
} // namespace

TEST_CASE("a record read back from its codec's JSON holds the same facts", "[record]") {
  const solution_result original =
      GENERATE(full_result(), wrong_result("bob"), implausible_result("carol", 90000),
               judge::testing::explained_result("dave", false), judge::testing::explained_result("erin", true));
  CAPTURE(original.author);
  const solution_result back = record_from_json(record_json(original));
  CHECK(back.path == original.path);
  CHECK(back.v == original.v);
  CHECK(back.message == original.message);
  CHECK(back.score == original.score);
  CHECK(back.sandbox == original.sandbox);
  CHECK(back.implausible == original.implausible);
  CHECK(back.kernels == original.kernels);
  CHECK(back.hints == original.hints);
  CHECK(back.sanitizer == original.sanitizer);
  REQUIRE(back.cases.size() == original.cases.size());
  for (std::size_t k = 0; k < original.cases.size(); ++k) {
    const case_result& got = back.cases[k];
    const case_result& want = original.cases[k];
    CAPTURE(want.name);
    CHECK(got.v == want.v);
    CHECK(got.implausible == want.implausible);
    CHECK(got.sanitizer == want.sanitizer);
    REQUIRE(got.timing.has_value() == want.timing.has_value());
    if (want.timing) {
      CHECK(timing_json(*got.timing) == timing_json(*want.timing));
      CHECK(got.timing->launches == want.timing->launches);
    }
  }
  CHECK(record_json(back) == record_json(original));
}

TEST_CASE("robustness cases and a wrong output's facts are read back as they were written", "[record]") {
  solution_result original = wrong_result("dave");
  mismatch m;
  m.buffer = "C";
  m.count = 7;
  m.total = 1048576;
  m.first_index = 17;
  m.first_coords = {0, 17};
  m.expected = 2.5;
  m.got = std::nanf("");
  m.allowed = 2.5e-5;
  m.exact = true;
  m.leetgpu = published_check{1e-4, 1e-4, 3};
  original.cases[1].wrong = m;
  case_result beyond = original.cases[0];
  beyond.name = "beyond_8193";
  beyond.beyond_limits = "M past LeetGPU's limit of 8192";
  beyond.v = verdict::run_time_error;
  beyond.message = "checked call 1: the runner was killed by signal 11 (SIGSEGV) before reporting a result";
  original.robustness.push_back(beyond);
  original.cases_not_run = {"leetgpu_rows_256x6144x4096", "beyond_8193_b"};
  original.cases_not_run_reason = "case ragged_1001x513x777 decided the verdict (WA)";
  const nlohmann::json j = record_json(original);
  CHECK(j.at("robustness").size() == 1);
  CHECK(j.at("cases").size() == original.cases.size()); // apart from the cases that decide
  CHECK(j.at("cases")[1].at("wrong").at("got") == "nan");
  const solution_result back = record_from_json(j);
  REQUIRE(back.robustness.size() == 1);
  CHECK(back.robustness[0].name == "beyond_8193");
  CHECK(back.robustness[0].beyond_limits == "M past LeetGPU's limit of 8192");
  CHECK(back.robustness[0].v == verdict::run_time_error);
  CHECK(back.cases_not_run == original.cases_not_run);
  CHECK(back.cases_not_run_reason == original.cases_not_run_reason);
  REQUIRE(back.cases[1].wrong);
  const mismatch& w = *back.cases[1].wrong;
  CHECK(w.first_coords == std::vector<std::int64_t>{0, 17});
  CHECK(std::isnan(w.got));
  CHECK(w.exact);
  REQUIRE(w.leetgpu);
  CHECK(w.leetgpu->outside == 3);
  CHECK(record_json(back) == j);
  // A record written before robustness cases existed has none.
  nlohmann::json older = j;
  older.erase("robustness");
  CHECK(record_from_json(older).robustness.empty());
}

TEST_CASE("the sandbox state is written as facts: its mode, its reason and each missing layer", "[record]") {
  sandbox_status s{sandbox_mode::on, ""};
  s.layers.set_missing(sandbox_layer::private_root, "mounting /proc: Operation not permitted");
  const nlohmann::json j = sandbox_json(s);
  CHECK(j == nlohmann::json::parse(R"({"mode": "on", "reason": "", "missing_layers":
                                        [{"layer": "private_root", "reason": "mounting /proc: Operation not permitted"}]})"));
  CHECK(sandbox_from_json(j, "") == s);
  const sandbox_status unavailable{sandbox_mode::unavailable, "unshare: Operation not permitted"};
  CHECK(sandbox_from_json(sandbox_json(unavailable), "") == unavailable);
}

TEST_CASE("a timing's throttled samples are written under one name everywhere", "[record]") {
  timing_summary t;
  t.discarded = 4;
  const nlohmann::json j = timing_json(t);
  CHECK(j.at("discarded_throttled") == 4);
  CHECK_FALSE(j.contains("discarded"));
  CHECK(timing_from_json(j, "").discarded == 4);
}

TEST_CASE("a record document of another shape is refused, naming the field", "[record]") {
  const nlohmann::json good = record_json(full_result());
  REQUIRE(error_of(good).empty());
  SECTION("a missing field") {
    nlohmann::json j = good;
    j.erase("hints");
    CHECK(error_of(j) == "result: field hints: missing");
  }
  SECTION("a sandbox in words, as reports show it") {
    nlohmann::json j = good;
    j["sandbox"] = "on";
    CHECK(error_of(j) == "result: sandbox: field mode: missing");
  }
  SECTION("an unknown sandbox mode") {
    nlohmann::json j = good;
    j["sandbox"]["mode"] = "sideways";
    CHECK(error_of(j) == "result: sandbox: field mode: \"sideways\" is not a sandbox mode");
  }
  SECTION("a timing of the wrong type") {
    nlohmann::json j = good;
    for (nlohmann::json& c : j["cases"])
      if (c.contains("timing")) c["timing"]["samples"] = "many";
    CHECK(error_of(j).find("timing: field samples: of the wrong type (string)") != std::string::npos);
  }
}

TEST_CASE("a record without an explanation has no sanitizer field, one with an explanation has it whole", "[record]") {
  CHECK_FALSE(record_json(wrong_result("bob")).contains("sanitizer"));
  const nlohmann::json j = record_json(judge::testing::explained_result("dave", false));
  REQUIRE(j.contains("sanitizer"));
  CHECK(j["sanitizer"]["state"] == "pending");
  CHECK(j["sanitizer"]["case"] == "square_1024");
}
