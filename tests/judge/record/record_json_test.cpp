#include "catch.hpp"
#include "results_fixtures.hpp"

#include "judge/record/record_json.hpp"

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
  const solution_result original = GENERATE(full_result(), wrong_result("bob"), implausible_result("carol", 90000));
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
