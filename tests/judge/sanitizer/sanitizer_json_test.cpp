#include "catch.hpp"
#include "text_match.hpp"

#include "judge/sanitizer/sanitizer_json.hpp"

#include <stdexcept>

using namespace judge;

TEST_CASE("sanitizer runs survive JSON with every fact", "[sanitizer]") {
  sanitizer_finding f;
  f.tool = sanitizer_tool::racecheck;
  f.kind = sanitizer_error_kind::shared_race;
  f.space = memory_space::shared;
  f.access = access_kind::write;
  f.size = 4;
  f.kernel = "k(float *)";
  f.at = {"a.cu", 3};
  f.thread = std::array<int, 3>{1, 2, 3};
  f.address = 0x80;
  f.other_access = access_kind::read;
  f.other_at = {"a.cu", 5};
  f.hazards = 7;
  f.headline = "Error: Race reported between Write access at k(float *)+0x10 in a.cu:3";
  sanitizer_run run;
  run.tool = sanitizer_tool::racecheck;
  run.state = sanitizer_state::timed_out;
  run.detail = "stopped after 130 s";
  run.errors = 1;
  run.seconds = 130.5;
  run.findings = {f};
  sanitizer_run api;
  api.state = sanitizer_state::ran;
  sanitizer_finding call;
  call.kind = sanitizer_error_kind::cuda_api_error;
  call.api_error = "cudaErrorLaunchFailure";
  call.api_call = "cudaDeviceSynchronize";
  api.findings = {call};
  const std::vector<sanitizer_run> runs = {run, api};
  const auto back = sanitizer_from_json(nlohmann::json::parse(sanitizer_json(runs).dump()), "test");
  CHECK(back == runs);
}

TEST_CASE("an unknown name in stored sanitizer JSON is an error naming it", "[sanitizer]") {
  nlohmann::json j = sanitizer_json({sanitizer_run{}});
  j[0]["tool"] = "leakcheck";
  CHECK_THROWS_AS(sanitizer_from_json(j, "case x"), std::runtime_error);
  CHECK_THROWS_AS(sanitizer_from_json(nlohmann::json::object(), "case x"), std::runtime_error);
}
