// The judge's side of every verdict, end to end through the grader, with the fake runner standing in
// for a GPU: the requests the grader sends are decoded by the same codec, the outputs it reads are the
// fake runner's files, and the verdicts and messages are what a learner would see.
#include "catch.hpp"

#include <csignal>
#include "text_match.hpp"

#include "fake_runner/fake_runner.hpp"
#include "judge/grading/grader.hpp"
#include "judge/sandbox/process.hpp"

#include <atomic>
#include <csignal>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

using judge_test::contains;

using namespace judge;
using judge_test::fake_runner;
#if JUDGE_CATCH_MAJOR >= 3
using Catch::Approx; // Catch2 2.13 declares it globally
#endif

namespace {

test_case vector_case(const std::string& name, std::int64_t n, visibility v, bool timed) {
  test_case c;
  c.name = name;
  c.visibility = v;
  c.sizes = {{"N", n}};
  c.seed = 2100 + static_cast<std::uint64_t>(n);
  c.timed = timed;
  return c;
}

/// vector_add's worked sample (statement.md), a hidden case and a hidden timed one.
std::vector<test_case> vector_cases() {
  test_case sample = vector_case("sample_8", 8, visibility::sample, false);
  sample.data["A"] = {0.5f, -1.25f, 3.75f, 2.125f, -0.0625f, 7.5f, -3.375f, 1.875f};
  sample.data["B"] = {1.25f, 0.5f, -1.5f, 0.625f, 4.25f, -2.75f, 0.875f, -0.125f};
  return {sample, vector_case("n_1001", 1001, visibility::hidden, false),
          vector_case("n_100", 100, visibility::hidden, true)};
}

grade_options fake_options(bool timing) {
  grade_options o;
  o.timing = timing;
  o.sandbox = false;
  o.case_seconds = 1;
  o.budget_seconds = 1;
  o.cpu_threads = 1;
  return o;
}

judge_secret test_secret() {
  judge_secret s;
  s.bytes.fill(42);
  return s;
}

device_info fake_device() {
  device_info d;
  d.name = "Fake GPU";
  d.fp32_peak_gflops = 100;
  return d;
}

problem_spec vector_add() { return load_problem(JUDGE_PROBLEMS_DIR "/vector_add"); }

build_result built(const std::string& scenario) {
  build_result b;
  b.status = build_status::ok;
  b.runner = fake_runner(scenario);
  return b;
}

solution_result grade_with(grader& g, const std::string& scenario) {
  solution_result r;
  r.path = "solutions/" + scenario + ".cu";
  g.grade(built(scenario), r, nullptr);
  return r;
}

} // namespace

TEST_CASE("a runner whose outputs are right is accepted on every case", "[grader]") {
  grader g(vector_add(), vector_cases(), test_secret(), fake_device(), fake_options(false));
  const std::string scenario = GENERATE(as<std::string>{}, "ok");
  const solution_result r = grade_with(g, scenario);
  CAPTURE(scenario, r.message);
  CHECK(r.v == verdict::accepted);
  CHECK(r.message.empty());
  REQUIRE(r.cases.size() == 3);
  for (const case_result& c : r.cases) CHECK(c.v == verdict::accepted);
  CHECK(contains(r.learner_output, "solve() of case sample_8"));
  CHECK(r.sandbox == sandbox_status{sandbox_mode::off, ""});
}

// (A runner that hangs in its timed runs is TLE too, but the grader waits 30 s past the timing budget
// for it; runner_session_test.cpp and verdict_test.cpp cover that path with shorter limits.)
TEST_CASE("every verdict a runner can cause, with the message a learner sees", "[grader]") {
  // Outputs through files, where each of the runner's ways of getting a file wrong has its own message;
  // the output window's ways are the next test's.
  grade_options files = fake_options(true);
  files.output_window = false;
  grader g(vector_add(), vector_cases(), test_secret(), fake_device(), files);
  const auto [scenario, expected, message] = GENERATE(table<std::string, verdict, std::string>({
      {"wrong", verdict::wrong_answer,
       "case sample_8 (8): checked call 1: 1 of 8 elements of C are wrong (against the CPU reference); first at "
       "index 3: expected 2.75, got 42"},
      {"unwritten", verdict::wrong_answer, "got NaN (the poison value: this element was never written)"},
      {"exit_in_solve", verdict::run_time_error,
       "checked call 1: the runner exited with code 0 before reporting a result (exit() inside solve()?)"},
      {"exit_before_hello", verdict::run_time_error, "the runner exited with code 0 before saying hello"},
      {"segfault", verdict::run_time_error, "the runner was killed by signal 11 (SIGSEGV) before reporting a result"},
      {"hang", verdict::time_limit_exceeded, "checked call 1: solve() did not return within the time limit"},
      {"cuda_error", verdict::run_time_error, "checked call 1: cudaErrorIllegalAddress: an illegal memory access"},
      {"banned", verdict::run_time_error,
       "solve() loaded cublas, which this problem bans (problem.yaml: banned_libraries)"},
      {"short_output", verdict::run_time_error,
       "the output of solve() could not be read back (output file 0.0.C.bin holds 28 bytes, not 32)"},
      {"foreign_output", verdict::run_time_error,
       "the output of solve() could not be read back (the runner did not say that output file 0.0.C.bin is "
       "ready)"},
      {"linked_output", verdict::run_time_error,
       "the output of solve() could not be read back (output file 0.0.C.bin is a symbolic link, not the file "
       "itself)"},
      {"timing_wrong", verdict::wrong_answer,
       "case n_100 (100, hidden): right on the checked calls but wrong on 2 timed run(s) with fresh inputs: timed run "
       "4: C at index 7: expected 1.5, got 0"},
      // What a process that ran learner code says about itself is its own failure, never the judge's.
      {"wrong_case", verdict::run_time_error,
       "the runner's answers are out of step with the judge's requests: it answered for case 'other' check 0 where "
       "case 'sample_8' check 0 was due (the process that ran your code reported it)"},
      {"no_status", verdict::run_time_error,
       "check answer field status: missing (the process that ran your code reported it)"},
      {"old_protocol", verdict::run_time_error, "the runner speaks protocol version 1, this judge version 7"},
      {"no_device", verdict::internal_error, "the runner could not start: no CUDA device: the fake runner has none"},
      {"error_answer", verdict::run_time_error,
       "the runner failed: cannot create output file /nowhere/0.0.C.bin: No such file or directory (the process "
       "that ran your code reported it)"},
      {"noise", verdict::run_time_error, "it wrote a line on the result channel that is not an answer"},
      {"garbled", verdict::run_time_error, "(the process that ran your code reported it)"},
  }));
  const solution_result r = grade_with(g, scenario);
  CAPTURE(scenario, r.message);
  CHECK(r.v == expected);
  CHECK(contains(r.message, message));
  CHECK(r.score == 0);
}

TEST_CASE("outputs through the output window: read where the runner put them, and poisoned once read", "[grader]") {
  grader g(vector_add(), vector_cases(), test_secret(), fake_device(), fake_options(true));
  // A right solution first: its outputs lie in the window until the judge has read them.
  const solution_result first = grade_with(g, "ok");
  CAPTURE(first.message);
  REQUIRE(first.v == verdict::accepted);
  const auto [scenario, expected, message] = GENERATE(table<std::string, verdict, std::string>({
      {"ok", verdict::accepted, ""},
      {"wrong", verdict::wrong_answer, "first at index 3: expected 2.75, got 42"},
      {"claims_unwritten", verdict::wrong_answer, "8 of 8 elements of C are wrong"},
      {"short_output", verdict::wrong_answer, "first at index 7"},
      {"foreign_output", verdict::run_time_error,
       "the output of solve() could not be read back (the runner did not say that output 0.0.C.bin is ready)"},
      // The window's size is sealed: a runner cannot make the judge's reads of it fault.
      {"shrinks_window", verdict::accepted, ""},
  }));
  const solution_result r = grade_with(g, scenario);
  CAPTURE(scenario, r.message, r.learner_output);
  CHECK(r.v == expected);
  CHECK(contains(r.message, message));
  if (scenario == "shrinks_window")
    CHECK(contains(r.learner_output, "window: shrinking Operation not permitted, growing Operation not permitted"));
}

TEST_CASE("a runner cannot claim what the solution before it left in the output window", "[grader]") {
  // One case, so that the right solution's outputs of it lie just where the next one's would go.
  grader g(vector_add(), {vector_case("n_1001", 1001, visibility::hidden, false)}, test_secret(), fake_device(),
           fake_options(false));
  REQUIRE(grade_with(g, "ok").v == verdict::accepted);
  const solution_result r = grade_with(g, "claims_unwritten");
  CAPTURE(r.message);
  CHECK(r.v == verdict::wrong_answer);
  CHECK(contains(r.message, "1001 of 1001 elements of C are wrong"));
  CHECK(contains(r.message, "expected -1.04614854, got NaN"));
}

TEST_CASE("a timed case whose work cannot be replayed is accepted without a time, and says why", "[grader]") {
  problem_spec spec = vector_add();
  spec.banned_libraries.clear(); // a library's kernel breaks no ban then
  grader g(spec, vector_cases(), test_secret(), fake_device(), fake_options(true));
  const std::string scenario = GENERATE(as<std::string>{}, "not_replayable", "foreign_kernel");
  const solution_result r = grade_with(g, scenario);
  CAPTURE(scenario, r.message);
  CHECK(r.v == verdict::accepted);
  const case_result& timed = r.cases.at(2);
  CHECK_FALSE(timed.timing);
  CHECK(contains(timed.feedback, "not timed: solve() "));
  CHECK(r.score == 0); // an untimed case leaves the score undefined: not ranked
}

TEST_CASE("a kernel that is not the solution's breaks a library ban", "[grader]") {
  problem_spec spec = vector_add();
  spec.banned_libraries = {"cublas"};
  grader g(spec, vector_cases(), test_secret(), fake_device(), fake_options(true));
  const solution_result r = grade_with(g, "foreign_kernel");
  CHECK(r.v == verdict::run_time_error);
  CHECK(contains(r.message, "not in the device code compiled from your sources"));
  CHECK(contains(r.message, "banned_libraries"));
}

namespace {
double phase_seconds(const run_phases& phases, const std::string& name) {
  for (const auto& [phase, seconds] : phases)
    if (phase == name) return seconds;
  FAIL("no phase " << name);
  return 0;
}
} // namespace

TEST_CASE("a hanging case's wait on its time limit is a phase of its own", "[grader]") {
  grader g(vector_add(), vector_cases(), test_secret(), fake_device(), fake_options(false));
  solution_result r;
  const run_phases phases = g.grade(built("hang"), r, nullptr);
  REQUIRE(r.v == verdict::time_limit_exceeded);
  CHECK(phase_seconds(phases, "limit wait") >= 1.0); // the case's limit is 1 s
  CHECK(phase_seconds(phases, "checked calls") < 0.5);
}

TEST_CASE("the runner's input generation and GPU reference checks come out of the timing phase", "[grader]") {
  grader g(vector_add(), vector_cases(), test_secret(), fake_device(), fake_options(true));
  const std::string scenario = GENERATE(as<std::string>{}, "ok", "forged_phases");
  solution_result r;
  const run_phases phases = g.grade(built(scenario), r, nullptr);
  CAPTURE(scenario);
  REQUIRE(r.v == verdict::accepted);
  const double inputs = phase_seconds(phases, "input generation");
  const double reference = phase_seconds(phases, "gpu reference");
  const double timing = phase_seconds(phases, "timing");
  CHECK(inputs == Approx(0.001).margin(1e-9)); // one timed case, as the runner said
  if (scenario == "ok") CHECK(reference == Approx(0.002).margin(1e-9));
  // A runner's forged day is clamped to the judge's own wait for the timing: no phase goes negative.
  CHECK(reference >= 0);
  CHECK(timing >= 0);
  CHECK(reference < 60);
}

TEST_CASE("the runner's input generation and output hand-over come out of the checked calls", "[grader]") {
  grader g(vector_add(), vector_cases(), test_secret(), fake_device(), fake_options(false));
  solution_result r;
  const run_phases phases = g.grade(built("check_phases"), r, nullptr);
  REQUIRE(r.v == verdict::accepted);
  const double inputs = phase_seconds(phases, "input generation");
  const double files = phase_seconds(phases, "output hand-over");
  // Untimed: every second of input generation is the checked calls', 1 ms each, as is each call's file.
  CHECK(inputs >= 0.002); // at least two checked calls
  CHECK(files == Approx(inputs).margin(1e-9));
  CHECK(phase_seconds(phases, "checked calls") >= 0);
}

TEST_CASE("a runner's forged split of its checked calls is held within the judge's wait for them", "[grader]") {
  grader g(vector_add(), vector_cases(), test_secret(), fake_device(), fake_options(false));
  solution_result r;
  const run_phases phases = g.grade(built("forged_check_phases"), r, nullptr);
  REQUIRE(r.v == verdict::accepted);
  double total = 0;
  for (const auto& [name, seconds] : phases) {
    CAPTURE(name);
    CHECK(seconds >= 0);
    total += seconds;
  }
  CHECK(total < 60); // not the two days each call claimed
  CHECK(phase_seconds(phases, "input generation") + phase_seconds(phases, "output hand-over") <= total);
}

TEST_CASE("reading and comparing the checked calls' outputs is a phase of its own, out of the checked calls",
          "[grader]") {
  grader g(vector_add(), vector_cases(), test_secret(), fake_device(), fake_options(false));
  solution_result r;
  const run_phases phases = g.grade(built("ok"), r, nullptr);
  REQUIRE(r.v == verdict::accepted);
  const double output_checks = phase_seconds(phases, "output checks");
  CHECK(output_checks > 0); // every case's outputs were read and compared
  double total = 0;
  for (const auto& [name, seconds] : phases) total += seconds;
  CHECK(output_checks < total);
}

TEST_CASE("a wrong first call is the verdict though the runner crashed in the next while it was checked",
          "[grader]") {
  // Check 0's outputs are compared beside check 1, in which the runner dies: the comparison's finding
  // must survive the runner's end, and the first failure in order decides.
  grader g(vector_add(), vector_cases(), test_secret(), fake_device(), fake_options(false));
  const solution_result r = grade_with(g, "wrong_then_segfault");
  CHECK(r.v == verdict::wrong_answer);
  CHECK(contains(r.message, "case sample_8 (8): checked call 1: 1 of 8 elements of C are wrong"));
}

TEST_CASE("a call that hangs on a case with little work is stopped at that case's own limit", "[grader]") {
  problem_spec spec = vector_add();
  spec.limits.case_seconds = 60;
  spec.limits.slowest_speed = 1;      // GB/s: sample_8's 96 bytes are given almost nothing,
  spec.limits.min_case_seconds = 0.5; // so they are given the least
  grade_options options = fake_options(false);
  options.case_seconds = 0; // the problem's limits, not one for every case
  grader g(spec, vector_cases(), test_secret(), fake_device(), options);
  solution_result r;
  const run_phases phases = g.grade(built("hang"), r, nullptr);
  CAPTURE(r.message);
  REQUIRE(r.v == verdict::time_limit_exceeded);
  CHECK(contains(r.message, "checked call 1: solve() did not return within the time limit of 0.5 s"));
  CHECK(phase_seconds(phases, "limit wait") >= 0.5);
  CHECK(phase_seconds(phases, "limit wait") < 30); // not the problem's most, 60 s
}

TEST_CASE("a solution that hangs is not run on its remaining cases", "[grader]") {
  grader g(vector_add(), vector_cases(), test_secret(), fake_device(), fake_options(false));
  const solution_result r = grade_with(g, "hang");
  CHECK(r.v == verdict::time_limit_exceeded);
  CHECK(r.cases.size() == 1);
  CHECK(r.cases_not_run == std::vector<std::string>{"n_1001", "n_100"});
  CHECK(contains(r.cases_not_run_reason, "case sample_8 ran out of time"));
}

namespace {
/// vector_cases() with a timed robustness case between the sample and the hidden ones, as a file may have it.
std::vector<test_case> cases_with_robustness() {
  std::vector<test_case> cases = vector_cases();
  test_case beyond = vector_case("beyond_n_2000", 2000, visibility::hidden, true);
  beyond.beyond_limits = "N past the published limit of 1,000";
  cases.insert(cases.begin() + 1, beyond);
  return cases;
}
} // namespace

TEST_CASE("robustness cases run after the deciding ones and are reported apart, untimed", "[grader]") {
  grader g(vector_add(), cases_with_robustness(), test_secret(), fake_device(), fake_options(true));
  REQUIRE(g.cases().size() == 4);
  CHECK(g.cases().back().name == "beyond_n_2000"); // moved behind the others
  const auto [scenario, expected] =
      GENERATE(table<std::string, verdict>({{"ok", verdict::accepted},
                                            {"wrong_beyond", verdict::wrong_answer},
                                            {"segfault_beyond", verdict::run_time_error}}));
  CAPTURE(scenario);
  const solution_result r = grade_with(g, scenario);
  CAPTURE(r.message);
  // Whatever happens past the limits, the verdict, the score and the cases that decide are the same.
  CHECK(r.v == verdict::accepted);
  CHECK(r.message.empty());
  REQUIRE(r.cases.size() == 3);
  CHECK(r.cases.at(2).name == "n_100");
  REQUIRE(r.cases.at(2).timing);
  CHECK(r.score == Approx(r.cases.at(2).speed));
  REQUIRE(r.robustness.size() == 1);
  const case_result& beyond = r.robustness[0];
  CHECK(beyond.name == "beyond_n_2000");
  CHECK(beyond.beyond_limits == "N past the published limit of 1,000");
  CHECK(beyond.v == expected);
  CHECK_FALSE(beyond.timing); // never timed, though the case says timed
  if (expected == verdict::wrong_answer) CHECK(contains(beyond.message, "1 of 2000 elements of C are wrong"));
  if (expected == verdict::run_time_error) CHECK(contains(beyond.message, "killed by signal 11 (SIGSEGV)"));
}

TEST_CASE("a robustness case has one checked call, and two when grading is strict", "[grader]") {
  // Wrong on a robustness case's second checked call only.
  grader g(vector_add(), cases_with_robustness(), test_secret(), fake_device(), fake_options(true));
  const solution_result r = grade_with(g, "wrong_second_check_beyond");
  CHECK(r.v == verdict::accepted);
  REQUIRE(r.robustness.size() == 1);
  CHECK(r.robustness[0].v == verdict::accepted); // its one call was right
  grade_options strict = fake_options(true);
  strict.strict = true;
  grader s(vector_add(), cases_with_robustness(), test_secret(), fake_device(), strict);
  const solution_result decided = grade_with(s, "wrong_second_check_beyond");
  CHECK(decided.v == verdict::wrong_answer); // deciding, it has both calls, and the second is wrong
  CHECK(contains(decided.message, "beyond_n_2000"));
}

TEST_CASE("after a failure the larger cases and the robustness cases are not run, and are named", "[grader]") {
  grader g(vector_add(), cases_with_robustness(), test_secret(), fake_device(), fake_options(true));
  const solution_result r = grade_with(g, "wrong");
  CHECK(r.v == verdict::wrong_answer);
  CHECK(contains(r.message, "case sample_8 (8): checked call 1"));
  REQUIRE(r.cases.size() == 1);
  CHECK(r.robustness.empty());
  CHECK(r.cases_not_run == std::vector<std::string>{"n_1001", "n_100", "beyond_n_2000"});
  CHECK(contains(r.cases_not_run_reason, "case sample_8 decided the verdict (WA)"));
}

TEST_CASE("after a failure the cases no larger than it, and one aligned case, still run, untimed", "[grader]") {
  grade_options strict = fake_options(true);
  strict.strict = true; // the robustness case decides where the file has it: a failure before smaller cases
  std::vector<test_case> cases = cases_with_robustness();
  cases.push_back(vector_case("n_4096", 4096, visibility::hidden, true)); // aligned: the ragged-tail hint's
  cases.push_back(vector_case("n_5000", 5000, visibility::hidden, true)); // larger and ragged: not run
  cases.push_back(vector_case("n_8192", 8192, visibility::hidden, true)); // a second aligned one: not run
  grader g(vector_add(), cases, test_secret(), fake_device(), strict);
  const solution_result r = grade_with(g, "segfault_beyond");
  CHECK(r.v == verdict::run_time_error);
  CHECK(contains(r.message, "case beyond_n_2000"));
  std::vector<std::string> ran;
  for (const case_result& c : r.cases) {
    ran.push_back(c.name);
    CHECK_FALSE(c.timing); // nothing after a failure is timed
  }
  CHECK(ran == std::vector<std::string>{"sample_8", "beyond_n_2000", "n_1001", "n_100", "n_4096"});
  CHECK(r.cases.at(4).v == verdict::accepted);
  CHECK(r.cases_not_run == std::vector<std::string>{"n_5000", "n_8192"});
  CHECK(contains(r.cases_not_run_reason, "case beyond_n_2000 decided the verdict (RTE)"));
  CHECK(r.score == 0);
}

TEST_CASE("a case run after the verdict is decided, to explain it, has one checked call", "[grader]") {
  grade_options strict = fake_options(true);
  strict.strict = true; // the robustness case decides, in file order: it fails before n_1001 and n_100
  std::vector<test_case> cases = cases_with_robustness();
  cases.push_back(vector_case("n_4096", 4096, visibility::hidden, true));
  grader g(vector_add(), cases, test_secret(), fake_device(), strict);
  // Every n_ case is wrong on its second checked call: with one call, each is right.
  const solution_result r = grade_with(g, "segfault_beyond_wrong_second_check");
  CHECK(r.v == verdict::run_time_error);
  CHECK(contains(r.message, "case beyond_n_2000"));
  REQUIRE(r.cases.size() == 5);
  for (std::size_t k = 2; k < 5; ++k) {
    CAPTURE(r.cases[k].name, r.cases[k].message);
    CHECK(r.cases[k].v == verdict::accepted);
  }
}

TEST_CASE("a solution that fails a later case is not timed: its right timed cases say why", "[grader]") {
  grade_options strict = fake_options(true);
  strict.strict = true; // the robustness case decides, in file order: after the timed n_100
  std::vector<test_case> cases = vector_cases();
  test_case beyond = vector_case("beyond_n_2000", 2000, visibility::hidden, false);
  beyond.beyond_limits = "N past the published limit of 1,000";
  cases.push_back(beyond);
  grader g(vector_add(), cases, test_secret(), fake_device(), strict);
  solution_result r;
  r.path = "solutions/wrong_beyond.cu";
  const run_phases phases = g.grade(built("wrong_beyond"), r, nullptr);
  CHECK(r.v == verdict::wrong_answer);
  CHECK(contains(r.message, "case beyond_n_2000"));
  REQUIRE(r.cases.size() == 4);
  const case_result& timed = r.cases.at(2);
  REQUIRE(timed.name == "n_100");
  CHECK(timed.v == verdict::accepted);
  CHECK_FALSE(timed.timing);
  CHECK(contains(timed.feedback, "not timed: a solution is timed once every case passes, and case beyond_n_2000 failed"));
  CHECK(phase_seconds(phases, "timing") == 0);
}

TEST_CASE("a replay that fails a timed case decides the verdict, and the timed cases after it are not timed",
          "[grader]") {
  std::vector<test_case> cases = cases_with_robustness();
  cases.push_back(vector_case("n_200", 200, visibility::hidden, true));
  grader g(vector_add(), cases, test_secret(), fake_device(), fake_options(true));
  const solution_result r = grade_with(g, "timing_wrong");
  CHECK(r.v == verdict::wrong_answer);
  CHECK(contains(r.message, "case n_100 (100, hidden)"));
  REQUIRE(r.cases.size() == 4);
  CHECK(r.cases.at(2).v == verdict::wrong_answer);
  const case_result& after = r.cases.at(3);
  REQUIRE(after.name == "n_200");
  CHECK(after.v == verdict::accepted);
  CHECK_FALSE(after.timing);
  CHECK(contains(after.feedback, "not timed: case n_100 failed"));
  // The verdict was decided before the robustness cases: they do not run.
  CHECK(r.robustness.empty());
  CHECK(r.cases_not_run == std::vector<std::string>{"beyond_n_2000"});
}

TEST_CASE("an accepted solution runs every case and lists none as not run", "[grader]") {
  grader g(vector_add(), cases_with_robustness(), test_secret(), fake_device(), fake_options(false));
  const solution_result r = grade_with(g, "ok");
  CHECK(r.v == verdict::accepted);
  CHECK(r.cases_not_run.empty());
  CHECK(r.cases_not_run_reason.empty());
}

TEST_CASE("strict grading makes a robustness case decide in file order and be timed", "[grader]") {
  grade_options strict = fake_options(true);
  strict.strict = true;
  grader g(vector_add(), cases_with_robustness(), test_secret(), fake_device(), strict);
  CHECK(g.cases().at(1).name == "beyond_n_2000"); // where the file has it
  SECTION("a failure past the limits is the verdict") {
    const solution_result r = grade_with(g, "wrong_beyond");
    CHECK(r.v == verdict::wrong_answer);
    CHECK(contains(r.message, "case beyond_n_2000 (2000, hidden): checked call 1: 1 of 2000 elements of C are wrong"));
    CHECK(r.robustness.empty());
    CHECK(r.score == 0);
  }
  SECTION("a pass past the limits is timed and counts in the score") {
    const solution_result r = grade_with(g, "ok");
    REQUIRE(r.v == verdict::accepted);
    REQUIRE(r.cases.size() == 4);
    REQUIRE(r.cases.at(1).timing);
    CHECK(r.robustness.empty());
    CHECK(r.score == Approx(std::sqrt(r.cases.at(1).speed * r.cases.at(3).speed)));
  }
}

TEST_CASE("accepted timed cases get figures and a score from the hidden ones", "[grader]") {
  grader g(vector_add(), vector_cases(), test_secret(), fake_device(), fake_options(true));
  const solution_result r = grade_with(g, "ok");
  CAPTURE(r.message);
  REQUIRE(r.v == verdict::accepted);
  const case_result& timed = r.cases.at(2);
  REQUIRE(timed.timing);
  CHECK(timed.timing->samples == judge_wire::timing_spec{}.min_samples); // the fake runner sends that many
  CHECK(timed.timing->method == "cupti");
  CHECK(timed.timing->stop_reason == "precision");
  CHECK(timed.timing->warmup_calls == 3);
  CHECK(timed.speed > 0);
  CHECK(r.score == Approx(timed.speed));
  CHECK_FALSE(r.cases.at(0).timing);
  CHECK_FALSE(timed.implausible);
  CHECK_FALSE(r.implausible);
}

TEST_CASE("the next solution's replaying runner, started during this one's untimed cases, times only its own build",
          "[grader]") {
  grader g(vector_add(), vector_cases(), test_secret(), fake_device(), fake_options(true));
  const build_result wrong_timing = built("timing_wrong");
  int asked = 0;
  solution_result first;
  first.path = "solutions/ok.cu";
  g.grade(built("ok"), first, nullptr, [&]() -> const build_result* {
    ++asked;
    return &wrong_timing;
  });
  CHECK(first.v == verdict::accepted);
  CHECK(asked == 1); // once, after the last timed case
  // Started for timing_wrong: never used for another build, which gets a replaying runner of its own.
  solution_result second;
  second.path = "solutions/ok-again.cu";
  g.grade(built("ok"), second, nullptr, [&] { return &wrong_timing; });
  CHECK(second.v == verdict::accepted);
  REQUIRE(second.cases.at(2).timing);
  // And used for the build it was started for: its timing is that runner's.
  solution_result third;
  third.path = "solutions/timing_wrong.cu";
  g.grade(wrong_timing, third, nullptr);
  CHECK(third.v == grade_with(g, "timing_wrong").v);
  CHECK(third.v != verdict::accepted);
}

namespace {
struct runner_event {
  std::string event, role;
  long pid = 0;
  long long ns = 0; ///< the monotonic clock
};

/// What the fake runners logged (fake_runner.cpp, --event-log), in order.
std::vector<runner_event> runner_events(const std::filesystem::path& log) {
  std::vector<runner_event> events;
  std::ifstream in(log);
  for (runner_event e; in >> e.event >> e.role >> e.pid >> e.ns;) events.push_back(e);
  return events;
}

/// The time of `event` of process `pid`; fails the test when there is none.
long long time_of(const std::vector<runner_event>& events, long pid, const std::string& event) {
  for (const runner_event& e : events)
    if (e.pid == pid && e.event == event) return e.ns;
  FAIL("process " << pid << " logged no " << event);
  return 0;
}
} // namespace

TEST_CASE("the next solution's runners start during this one's untimed cases, its code loading once this one ended",
          "[grader]") {
  const judge_test::temp_folder logs("runners-ahead");
  const std::filesystem::path log = logs.path() / "events";
  // The timed case before an untimed one, whose checks the first solution takes 0.2 s each to answer:
  // time enough for the runners started ahead to have begun before it ends.
  std::vector<test_case> cases = vector_cases();
  std::swap(cases[1], cases[2]);
  grader g(vector_add(), cases, test_secret(), fake_device(), fake_options(true));
  build_result first = built("slow_checks");
  first.runner = fake_runner("slow_checks", log);
  build_result second = built("ok");
  second.runner = fake_runner("ok", log);
  solution_result one, two;
  one.path = "solutions/first.cu";
  two.path = "solutions/second.cu";
  g.grade(first, one, nullptr, [&] { return &second; });
  g.grade(second, two, nullptr);
  CHECK(one.v == verdict::accepted);
  CHECK(two.v == verdict::accepted);
  REQUIRE(two.cases.at(1).timing); // the timed case, timed by the replaying runner started ahead

  const std::vector<runner_event> events = runner_events(log);
  std::vector<long> recorders, replayers;
  for (const runner_event& e : events)
    if (e.event == "start") (e.role == "recording" ? recorders : replayers).push_back(e.pid);
  // One of each per solution: the ones started ahead were used, none was started again.
  REQUIRE(recorders.size() == 2);
  REQUIRE(replayers.size() == 2);
  const long long first_ended = time_of(events, recorders[0], "end");
  CHECK(time_of(events, recorders[1], "start") < first_ended); // started ahead, while the first was graded
  CHECK(time_of(events, replayers[1], "start") < first_ended);
  CHECK(time_of(events, recorders[1], "load") > first_ended); // its solution loaded only after the first ended
}

TEST_CASE("the next solution's runners start once this one's recorder is up and have started before its first "
          "timed case", "[grader]") {
  const judge_test::temp_folder logs("runners-ahead");
  const std::filesystem::path log = logs.path() / "events";
  // Untimed (0.2 s a check for the first solution: time for the next one's runners to start), timed,
  // timed: nothing between the two timed cases to overlap a start.
  const std::vector<test_case> cases = {vector_case("n_1001", 1001, visibility::hidden, false),
                                        vector_case("n_100", 100, visibility::hidden, true),
                                        vector_case("n_200", 200, visibility::hidden, true)};
  grader g(vector_add(), cases, test_secret(), fake_device(), fake_options(true));
  build_result first = built("slow_checks");
  first.runner = fake_runner("slow_checks", log);
  build_result second = built("ok");
  second.runner = fake_runner("ok", log);
  solution_result one, two;
  g.grade(first, one, nullptr, [&] { return &second; });
  g.grade(second, two, nullptr);
  CHECK(one.v == verdict::accepted);
  CHECK(two.v == verdict::accepted);
  REQUIRE(one.cases.at(2).timing);

  const std::vector<runner_event> events = runner_events(log);
  std::vector<long> recorders, replayers;
  for (const runner_event& e : events)
    if (e.event == "start") (e.role == "recording" ? recorders : replayers).push_back(e.pid);
  REQUIRE(recorders.size() == 2); // the ones started ahead were used, none started again
  REQUIRE(replayers.size() == 2);
  std::vector<long long> first_timings; // the first solution's timed cases, as its replaying runner got them
  for (const runner_event& e : events)
    if (e.pid == replayers[0] && e.event == "case") first_timings.push_back(e.ns);
  REQUIRE(first_timings.size() == 2);
  // Started once the first solution's recorder was up (its hello)...
  CHECK(time_of(events, recorders[1], "start") > time_of(events, recorders[0], "hello"));
  CHECK(time_of(events, replayers[1], "start") > time_of(events, recorders[0], "hello"));
  // ...and started to the end (held, or said hello) before its first timed case began.
  CHECK(time_of(events, recorders[1], "held") < first_timings[0]);
  CHECK(time_of(events, replayers[1], "hello") < first_timings[0]);
  // Its solution loaded only after the first solution ended.
  CHECK(time_of(events, recorders[1], "load") > time_of(events, recorders[0], "end"));
}

TEST_CASE("runners started ahead that fail to start are started again for their solution, not charged to it",
          "[grader]") {
  const judge_test::temp_folder logs("runners-ahead-failed");
  const std::filesystem::path log = logs.path() / "events";
  grader g(vector_add(), vector_cases(), test_secret(), fake_device(), fake_options(true));
  build_result first = built("ok");
  first.runner = fake_runner("ok", log);
  build_result second = built("start_fails_once");
  second.runner = fake_runner("start_fails_once", log);
  solution_result one, two;
  g.grade(first, one, nullptr, [&] { return &second; });
  g.grade(second, two, nullptr);
  CHECK(one.v == verdict::accepted);
  CHECK(two.v == verdict::accepted);
  CAPTURE(two.message);
  const std::vector<runner_event> events = runner_events(log);
  std::size_t died = 0, recorders = 0;
  for (const runner_event& e : events) {
    if (e.event == "died") ++died;
    if (e.event == "start" && e.role == "recording") ++recorders;
  }
  CHECK(died == 1);      // one of the runners started ahead
  CHECK(recorders == 3); // the first solution's, the one started ahead, the one started again
}

TEST_CASE("a solution's runners are killed at their done and reaped while the next one's recorder loads",
          "[grader]") {
  const judge_test::temp_folder logs("runner-exits");
  const std::filesystem::path log = logs.path() / "events";
  grader g(vector_add(), vector_cases(), test_secret(), fake_device(), fake_options(true));
  build_result first = built("slow_exit");
  first.runner = fake_runner("slow_exit", log);
  build_result second = built("ok");
  second.runner = fake_runner("ok", log);
  solution_result one, two;
  one.path = "solutions/first.cu";
  two.path = "solutions/second.cu";
  g.grade(first, one, nullptr, [&] { return &second; });
  CHECK(one.v == verdict::accepted);
  // Printed before its "done": kept, though the judge did not wait for the exit.
  CHECK(contains(one.learner_output, "printed before done"));
  g.grade(second, two, nullptr);
  CHECK(two.v == verdict::accepted);

  const std::vector<runner_event> events = runner_events(log);
  std::vector<long> recorders, replayers;
  for (const runner_event& e : events)
    if (e.event == "start") (e.role == "recording" ? recorders : replayers).push_back(e.pid);
  REQUIRE(recorders.size() == 2);
  REQUIRE(replayers.size() == 2);
  // Killed at its "done": nothing of it ran on for its second, nor while the next solution loaded.
  const long long loaded = time_of(events, recorders[1], "load");
  for (const runner_event& e : events)
    if (e.pid == recorders[0] || e.pid == replayers[0]) {
      CHECK(e.event != "exit");
      if (e.event == "alive") CHECK(e.ns < loaded);
    }
}

TEST_CASE("a grader reaps at its end the runners it killed at their done", "[grader]") {
  const judge_test::temp_folder logs("runner-exits");
  const std::filesystem::path log = logs.path() / "events";
  grader g(vector_add(), vector_cases(), test_secret(), fake_device(), fake_options(true));
  build_result only = built("slow_exit");
  only.runner = fake_runner("slow_exit", log);
  solution_result r;
  g.grade(only, r, nullptr);
  CHECK(r.v == verdict::accepted);
  g.settle_exits();
  std::vector<long> runners;
  for (const runner_event& e : runner_events(log))
    if (e.event == "start") runners.push_back(e.pid);
  REQUIRE(runners.size() == 2); // the recorder and the replayer
  for (const long pid : runners) {
    CAPTURE(pid);
    // Reaped: not even a zombie is left (the fake runners run without a sandbox, in the judge's PID space).
    CHECK(::kill(static_cast<pid_t>(pid), 0) == -1);
  }
}

TEST_CASE("a time below the physical floor of the device is accepted and flagged with its figures", "[grader]") {
  device_info slow = fake_device();
  slow.fp32_peak_gflops = 1e-4; // n_100's 100 FLOP take 1 ms at this peak; the fake runner says 0.5 ms
  grader g(vector_add(), vector_cases(), test_secret(), slow, fake_options(true));
  const solution_result r = grade_with(g, "ok");
  CAPTURE(r.message);
  REQUIRE(r.v == verdict::accepted);
  CHECK(r.implausible);
  CHECK(r.score > 0); // stored as measured, for the instructor; the leaderboard leaves it out
  const case_result& timed = r.cases.at(2);
  REQUIRE(timed.implausible);
  CHECK(timed.implausible->ceiling == speed_ceiling::fp32_peak);
  CHECK(timed.implausible->work == 100);
  CHECK(timed.implausible->floor_ms == Approx(1.0));
  CHECK(timed.implausible->median_ms == Approx(timed.timing->median_ms));
}

TEST_CASE("a solution timed by another method than the baseline gets no % of baseline, and a note", "[grader]") {
  problem_spec spec = vector_add();
  spec.baseline.label = "fake baseline";
  grader g(spec, vector_cases(), test_secret(), fake_device(), fake_options(true));
  REQUIRE(g.run_baseline(built("ok"), nullptr).empty());
  REQUIRE(g.baseline_timings().at("n_100").method == "cupti");
  const solution_result r = grade_with(g, "no_cupti");
  REQUIRE(r.v == verdict::accepted);
  const case_result& timed = r.cases.at(2);
  REQUIRE(timed.timing);
  CHECK(timed.timing->method == "events");
  CHECK(timed.baseline_speed > 0);
  CHECK(timed.pct_of_baseline == 0);
  CHECK(contains(timed.feedback, "timed with events but the baseline with cupti"));
  const solution_result same = grade_with(g, "ok");
  CHECK(same.cases.at(2).pct_of_baseline == Approx(100));
  CHECK_FALSE(contains(same.cases.at(2).feedback, "baseline with"));
}

TEST_CASE("a solution that did not compile is a compile error without running", "[grader]") {
  grader g(vector_add(), vector_cases(), test_secret(), fake_device(), fake_options(false));
  build_result b;
  b.status = build_status::compile_error;
  b.message = "solution.cu(3): error: expected a \";\"";
  solution_result r;
  g.grade(b, r, nullptr);
  CHECK(r.v == verdict::compile_error);
  CHECK(r.message == b.message);
  CHECK(r.cases.empty());
}

TEST_CASE("a baseline that is a reference judges solutions too, once it agrees with the CPU", "[grader]") {
  problem_spec spec = vector_add();
  spec.baseline.is_reference = true;
  spec.baseline.label = "fake baseline";
  grader g(spec, vector_cases(), test_secret(), fake_device(), fake_options(true));
  SECTION("a baseline that agrees gives timings to compare with") {
    CHECK(g.run_baseline(built("ok"), nullptr).empty());
    CHECK(g.baseline_timings().count("n_100") == 1);
    const solution_result r = grade_with(g, "ok");
    CHECK(r.v == verdict::accepted);
    CHECK(r.cases.at(2).pct_of_baseline == Approx(100));
  }
  SECTION("a baseline that disagrees is the judge's fault, never the learner's") {
    CHECK(g.run_baseline(built("wrong"), nullptr).empty());
    const solution_result r = grade_with(g, "ok");
    CHECK(r.v == verdict::internal_error);
    CHECK(contains(r.message, "the CPU and baseline references disagree; this is the judge's fault, not yours"));
  }
  SECTION("a baseline that fails says so") {
    const std::string error = g.run_baseline(built("segfault"), nullptr);
    CHECK(error == "the baseline failed on case sample_8: the runner was killed by signal 11 (SIGSEGV) before "
                   "reporting a result");
  }
  SECTION("a baseline that cannot start says why") {
    const std::string error = g.run_baseline(built("no_device"), nullptr);
    CHECK(error == "the baseline runner did not start: the runner could not start: no CUDA device: the fake runner "
                   "has none");
  }
}

namespace {

/// A stand-in compute-sanitizer: reports one invalid write of the tool it was asked for (only when the
/// runner was asked for exact buffers, as the judge must), prints a buffer map as the runner would, then
/// runs the runner's command line and ends with its summary.
std::filesystem::path fake_sanitizer() {
  static const judge_test::temp_folder folder("fake-sanitizer");
  const std::filesystem::path script = folder.path() / "compute-sanitizer";
  if (!std::filesystem::exists(script)) {
    std::ofstream(script)
        << "#!/bin/sh\n"
           "tool=$2\n"
           "shift 6\n"
           "case \" $* \" in *' --profiler --exact-buffers '*)\n"
           "  echo 'judge-buffer C 0x1000 32' >&2\n"
           "  echo \"========= Invalid __global__ write of size 4 bytes ($tool)\"\n"
           "  echo '=========     at k(float *)+0x10 in /c/p/.tmp-ab-1-1/src/mine.cu:7'\n"
           "  echo '=========     by thread (1,0,0) in block (2,0,0)'\n"
           "  echo '=========     Address 0x1020 is out of bounds'\n"
           "  echo '=========     and is 0 bytes after the nearest allocation at 0x1000 of size 32 bytes'\n"
           "  echo '=========' ;;\n"
           "esac\n"
           "\"$@\"\n"
           "echo '========= ERROR SUMMARY: 1 error'\n";
    std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  }
  return script;
}

/// A stand-in compute-sanitizer that takes longer than any bound a test sets before it runs the runner.
std::filesystem::path slow_sanitizer() {
  static const judge_test::temp_folder folder("slow-sanitizer");
  const std::filesystem::path script = folder.path() / "compute-sanitizer";
  if (!std::filesystem::exists(script)) {
    std::ofstream(script) << "#!/bin/sh\nsleep 30\nshift 6\n\"$@\"\n";
    std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  }
  return script;
}

grade_options sanitizing_options(bool every_case) {
  grade_options o = fake_options(true);
  o.sanitizer.on_failure = true;
  o.sanitizer.every_case = every_case;
  o.sanitizer.executable = fake_sanitizer();
  return o;
}

std::vector<sanitizer_tool> tools_of(const case_result& c) {
  std::vector<sanitizer_tool> tools;
  for (const sanitizer_run& r : c.sanitizer) tools.push_back(r.tool);
  return tools;
}

/// grade_with(), then the result's pending explanation run, as `judge run` does after printing the verdict.
solution_result grade_and_explain(grader& g, const std::string& scenario) {
  solution_result r = grade_with(g, scenario);
  g.explain(built(scenario), r, nullptr);
  return r;
}

} // namespace

TEST_CASE("a CUDA error's explanation is planned with the verdict and memcheck runs after it, placing the write",
          "[grader][sanitizer]") {
  grader g(vector_add(), vector_cases(), test_secret(), fake_device(), sanitizing_options(false));
  solution_result r = grade_with(g, "cuda_error");
  CHECK(r.v == verdict::run_time_error); // the sanitizer explains; it does not decide
  REQUIRE(r.cases.size() == 1);           // the larger cases are not run after a failure
  CHECK(r.cases_not_run == std::vector<std::string>{"n_1001", "n_100"});
  // The verdict is complete before any tool ran: the plan waits in the result.
  CHECK(r.cases[0].sanitizer.empty());
  CHECK(r.sanitizer.state == explanation_state::pending);
  CHECK(r.sanitizer.case_name == "sample_8");
  CHECK(r.sanitizer.tools == std::vector<sanitizer_tool>{sanitizer_tool::memcheck});
  CHECK(r.sanitizer.seconds_per_tool == Approx(sanitizer_seconds(1)));
  const solution_result decided = r;
  CHECK(g.explain(built("cuda_error"), r, nullptr) >= 0);
  CHECK(r.sanitizer.state == explanation_state::done);
  CHECK(r.v == decided.v);
  CHECK(r.message == decided.message);
  REQUIRE(tools_of(r.cases[0]) == std::vector<sanitizer_tool>{sanitizer_tool::memcheck});
  const sanitizer_run& run = r.cases[0].sanitizer[0];
  CHECK(run.state == sanitizer_state::ran);
  CHECK(run.errors == 1);
  REQUIRE(run.findings.size() == 1);
  const sanitizer_finding& f = run.findings[0];
  CHECK(f.at == source_line{"mine.cu", 7});
  CHECK(f.buffer == "C");
  CHECK(f.relation == buffer_relation::after);
  CHECK(f.distance == 0u);
  // Once: an explanation done is not run again.
  const solution_result once = r;
  CHECK(g.explain(built("cuda_error"), r, nullptr) == 0);
  CHECK(r.cases[0].sanitizer == once.cases[0].sanitizer);
}

TEST_CASE("only the first failure is explained, not the cases that run after it", "[grader][sanitizer]") {
  grade_options strict = sanitizing_options(false);
  strict.strict = true; // beyond_n_2000 decides where the file has it, before the smaller n_1001 and n_100
  grader g(vector_add(), cases_with_robustness(), test_secret(), fake_device(), strict);
  const solution_result r = grade_and_explain(g, "cuda_error_beyond");
  REQUIRE(r.cases.size() == 4);
  CHECK(r.cases[1].name == "beyond_n_2000");
  CHECK(r.sanitizer.case_name == "beyond_n_2000");
  CHECK(tools_of(r.cases[1]) == std::vector<sanitizer_tool>{sanitizer_tool::memcheck});
  CHECK(r.cases[2].sanitizer.empty());
  CHECK(r.cases[3].sanitizer.empty());
}

TEST_CASE("answers that differ between calls rerun racecheck, then initcheck", "[grader][sanitizer]") {
  grader g(vector_add(), vector_cases(), test_secret(), fake_device(), sanitizing_options(false));
  const solution_result r = grade_and_explain(g, "timing_wrong");
  CHECK(r.v == verdict::wrong_answer);
  REQUIRE(r.cases.size() == 3);
  CHECK(r.cases[0].sanitizer.empty()); // untimed cases: right
  CHECK(tools_of(r.cases[2]) == std::vector<sanitizer_tool>{sanitizer_tool::racecheck, sanitizer_tool::initcheck});
  CHECK(r.sanitizer.state == explanation_state::done);
}

TEST_CASE("an explanation whose tool runs past its bound is recorded as over budget, its verdict as it was",
          "[grader][sanitizer]") {
  grade_options o = sanitizing_options(false);
  o.sanitizer.executable = slow_sanitizer();
  o.sanitizer.limit_seconds = 1;
  grader g(vector_add(), vector_cases(), test_secret(), fake_device(), o);
  solution_result r = grade_with(g, "cuda_error");
  CHECK(r.sanitizer.seconds_per_tool == 1);
  const auto began = std::chrono::steady_clock::now();
  g.explain(built("cuda_error"), r, nullptr);
  CHECK(std::chrono::steady_clock::now() - began < std::chrono::seconds(20)); // stopped at its bound
  CHECK(r.v == verdict::run_time_error);
  CHECK(r.sanitizer.state == explanation_state::over_budget);
  REQUIRE(r.cases[0].sanitizer.size() == 1);
  CHECK(r.cases[0].sanitizer[0].state == sanitizer_state::timed_out);
  CHECK(r.cases[0].sanitizer[0].detail == "stopped after 1 s");
}

TEST_CASE("an explanation told to give way stops its tool's run and stays pending, with no runs",
          "[grader][sanitizer]") {
  std::atomic<bool> give_way{false};
  grade_options o = sanitizing_options(false);
  o.sanitizer.executable = slow_sanitizer();
  o.sanitizer.give_way = &give_way;
  grader g(vector_add(), vector_cases(), test_secret(), fake_device(), o);
  solution_result r = grade_with(g, "cuda_error");
  REQUIRE(r.sanitizer.state == explanation_state::pending);
  // As a server's worker does when a submission comes to be graded: the flag, then the tool's run killed.
  std::thread worker([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    give_way = true;
    for (int i = 0; i < 20; ++i) {
      kill_all_children();
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  });
  const auto began = std::chrono::steady_clock::now();
  g.explain(built("cuda_error"), r, nullptr);
  worker.join();
  CHECK(std::chrono::steady_clock::now() - began < std::chrono::seconds(20)); // not the tool's 30 s
  CHECK(r.sanitizer.state == explanation_state::pending);
  CHECK(r.cases[0].sanitizer.empty());
  // Given way before it began, it does not begin.
  CHECK(g.explain(built("cuda_error"), r, nullptr) == 0);
  CHECK(r.sanitizer.state == explanation_state::pending);
}

TEST_CASE("an explanation of a case the problem no longer has fails, saying so", "[grader][sanitizer]") {
  grader g(vector_add(), vector_cases(), test_secret(), fake_device(), sanitizing_options(false));
  solution_result r = grade_with(g, "cuda_error");
  r.sanitizer.case_name = "renamed_since";
  g.explain(built("cuda_error"), r, nullptr);
  CHECK(r.sanitizer.state == explanation_state::failed);
  CHECK(r.sanitizer.detail == "the problem has no case renamed_since now");
  CHECK(r.cases[0].sanitizer.empty());
}

TEST_CASE("a wrong answer with every write inside its buffers is not rerun", "[grader][sanitizer]") {
  grader g(vector_add(), vector_cases(), test_secret(), fake_device(), sanitizing_options(false));
  const solution_result r = grade_and_explain(g, "wrong");
  CHECK(r.v == verdict::wrong_answer);
  CHECK(r.sanitizer.state == explanation_state::none);
  for (const case_result& c : r.cases) CHECK(c.sanitizer.empty());
}

TEST_CASE("sanitizing every case runs the three tools on each case of an accepted solution", "[grader][sanitizer]") {
  grader g(vector_add(), vector_cases(), test_secret(), fake_device(), sanitizing_options(true));
  const solution_result r = grade_with(g, "ok");
  CHECK(r.v == verdict::accepted);
  CHECK(r.score > 0);
  REQUIRE(r.cases.size() == 3);
  for (const case_result& c : r.cases)
    CHECK(tools_of(c) ==
          std::vector<sanitizer_tool>{sanitizer_tool::memcheck, sanitizer_tool::racecheck, sanitizer_tool::initcheck});
  CHECK(r.sanitizer.state == explanation_state::none); // asked for, inline: nothing explained apart
}

TEST_CASE("without compute-sanitizer the failure says it was not run and why", "[grader][sanitizer]") {
  grade_options o = sanitizing_options(false);
  o.sanitizer.executable.clear();
  o.sanitizer.missing = "no compute-sanitizer at /nowhere";
  grader g(vector_add(), vector_cases(), test_secret(), fake_device(), o);
  const solution_result r = grade_with(g, "cuda_error");
  REQUIRE(r.cases.size() == 1);
  // Said with the verdict: there is nothing to wait for.
  REQUIRE(r.cases[0].sanitizer.size() == 1);
  CHECK(r.cases[0].sanitizer[0].state == sanitizer_state::not_available);
  CHECK(r.cases[0].sanitizer[0].detail == "no compute-sanitizer at /nowhere");
  CHECK(r.sanitizer.state == explanation_state::failed);
  CHECK(r.sanitizer.detail == "no compute-sanitizer at /nowhere");
}
