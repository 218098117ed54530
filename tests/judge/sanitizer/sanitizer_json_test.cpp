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

TEST_CASE("a failure's explanation survives JSON with its plan and its state", "[sanitizer]") {
  sanitizer_explanation e;
  e.state = explanation_state::over_budget;
  e.case_name = "ragged_1001x513x777";
  e.check = 1;
  e.tools = {sanitizer_tool::racecheck, sanitizer_tool::initcheck};
  e.seconds_per_tool = 40;
  e.detail = "";
  const nlohmann::json j = explanation_json(e);
  CHECK(j["state"] == "over_budget");
  CHECK(j["tools"] == nlohmann::json{"racecheck", "initcheck"});
  CHECK(explanation_from_json(nlohmann::json::parse(j.dump()), "test") == e);
  for (const explanation_state s : {explanation_state::none, explanation_state::pending, explanation_state::done,
                                    explanation_state::over_budget, explanation_state::failed})
    CHECK(explanation_state_from_name(explanation_state_name(s), "test") == s);
}

TEST_CASE("an explanation in JSON of another shape is an error naming where", "[sanitizer]") {
  nlohmann::json j = explanation_json({});
  j["state"] = "running";
  CHECK_THROWS_WITH(explanation_from_json(j, "result sanitizer"), Catch::Matchers::Contains("result sanitizer state"));
  j = explanation_json({});
  j.erase("tools");
  CHECK_THROWS_WITH(explanation_from_json(j, "result sanitizer"), Catch::Matchers::Contains("result sanitizer"));
  CHECK_THROWS_AS(explanation_from_json(nlohmann::json::array(), "x"), std::runtime_error);
}
