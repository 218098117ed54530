// A solution that compiled but was not run (no CUDA device): every report says so in the same words,
// and none calls it an internal error of the judge.
#include "catch.hpp"
#include "judge/report/not_run_text.hpp"
#include "judge/report/report_json.hpp"
#include "judge/report/report_junit.hpp"
#include "judge/report/report_terminal.hpp"
#include "results_fixtures.hpp"
#include "text_match.hpp"

using judge_test::contains;
using namespace judge;

namespace {

solution_result not_run() {
  solution_result r = judge::testing::accepted_result("alice", 1);
  r.path = "alice.cu";
  r.v = verdict::internal_error;
  r.compiled_only = true;
  r.message = "compiled; not run: no CUDA device is present";
  r.cases.clear();
  r.score = 0;
  return r;
}

solution_result compile_error() {
  solution_result r = not_run();
  r.path = "bob.cu";
  r.compiled_only = false;
  r.v = verdict::compile_error;
  r.message = "bob.cu(2): error: expected an expression";
  return r;
}

} // namespace

TEST_CASE("the terminal shows a solution not run as NR with the reason, and counts it apart", "[report]") {
  const terminal_style plain;
  const std::string shown = render_solution(not_run(), "cuBLAS", plain);
  CHECK(contains(shown, "alice.cu  NR\n"));
  CHECK(contains(shown, "compiled, not run: no CUDA device"));
  CHECK_FALSE(contains(shown, "IE"));
  const std::string summary = render_summary({not_run(), compile_error()}, plain);
  CHECK(contains(summary, "2 solution(s): 1 CE 1 compiled, not run (no CUDA device)"));
  CHECK_FALSE(contains(summary, "IE"));
}

TEST_CASE("the closing note of a run without a device says what compiled, or that nothing did", "[report]") {
  const std::string reason = "no NVIDIA GPU was found: no NVIDIA driver is loaded on this machine";
  const std::string some = render_no_device_note({not_run(), compile_error()}, reason);
  CHECK(contains(some, "no CUDA device on this machine (" + reason +
                           "): 1 solution(s) compiled but "
                           "not run"));
  CHECK(contains(some, "bin/judge submit <problem> <file> --server URL"));
  const std::string none = render_no_device_note({compile_error()}, reason);
  CHECK(contains(none, "no solution compiled, so there was nothing to run"));
  CHECK_FALSE(contains(none, "compiled but not run"));
}

TEST_CASE("the --json report gives a solution not run the verdict NR and says why", "[report]") {
  const auto json = run_to_json("matmul", device_info{}, {not_run()});
  const auto& s = json.at("solutions").at(0);
  CHECK(s.at("verdict") == not_run_short);
  CHECK(s.at("message") == "compiled, not run: no CUDA device");
}

TEST_CASE("the --junit report marks a solution not run as skipped, not as an error", "[report]") {
  const std::string xml = junit_xml({not_run()});
  CHECK(contains(xml, "<skipped message=\"compiled, not run: no CUDA device\"/>"));
  CHECK(contains(xml, "errors=\"0\" skipped=\"1\""));
  CHECK_FALSE(contains(xml, "<error"));
}
