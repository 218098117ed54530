#include "catch.hpp"

#include "judge/sanitizer/sanitizer_explanation.hpp"

using namespace judge;

namespace {
sanitizer_run run(sanitizer_tool tool, sanitizer_state state, std::string detail = "") {
  sanitizer_run r;
  r.tool = tool;
  r.state = state;
  r.detail = std::move(detail);
  return r;
}
} // namespace

TEST_CASE("an explanation's runs leave it done, over budget when one was stopped, failed when none checked",
          "[sanitizer]") {
  const auto ran = run(sanitizer_tool::racecheck, sanitizer_state::ran);
  const auto stopped = run(sanitizer_tool::initcheck, sanitizer_state::timed_out, "stopped after 40 s");
  const auto failed = run(sanitizer_tool::memcheck, sanitizer_state::failed, "the tool could not attach");
  const auto missing = run(sanitizer_tool::memcheck, sanitizer_state::not_available, "no compute-sanitizer at /x");
  CHECK(state_after({ran}) == explanation_state::done);
  CHECK(state_after({ran, stopped}) == explanation_state::over_budget);
  CHECK(state_after({failed, stopped}) == explanation_state::over_budget);
  CHECK(state_after({ran, failed}) == explanation_state::done); // one tool checked the case
  CHECK(state_after({failed, missing}) == explanation_state::failed);
  CHECK(state_after({}) == explanation_state::failed);
}

TEST_CASE("the runs a result kept on one case stand for its explanation, and on none or several for none",
          "[sanitizer]") {
  const auto ran = run(sanitizer_tool::memcheck, sanitizer_state::ran);
  const auto missing = run(sanitizer_tool::memcheck, sanitizer_state::not_available, "no compute-sanitizer at /x");
  const sanitizer_explanation one = explanation_of_runs({{"sample_8", {}}, {"n_1001", {ran}}});
  CHECK(one.state == explanation_state::done);
  CHECK(one.case_name == "n_1001");
  CHECK(one.tools == std::vector<sanitizer_tool>{sanitizer_tool::memcheck});
  const sanitizer_explanation not_run = explanation_of_runs({{"n_1001", {missing}}});
  CHECK(not_run.state == explanation_state::failed);
  CHECK(not_run.detail == "no compute-sanitizer at /x");
  CHECK(explanation_of_runs({{"a", {ran}}, {"b", {ran}}}).state == explanation_state::none); // --sanitize
  CHECK(explanation_of_runs({{"a", {}}}).state == explanation_state::none);
}
