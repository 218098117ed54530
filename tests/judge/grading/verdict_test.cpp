#include "catch.hpp"
#include "text_match.hpp"

#include "judge/grading/verdict.hpp"
#include "judge/problem/verdicts.hpp"

#include <csignal>

using judge_test::contains;

using namespace judge;

namespace {
using judge_wire::call_status;

call_facts ok_call() {
  call_facts c;
  c.answer = judge_wire::check_answer{};
  c.answer->status = call_status::ok;
  return c;
}
call_facts unanswered(request_outcome outcome, std::optional<child_process::exit_status> exit = std::nullopt) {
  call_facts c;
  c.request.outcome = outcome;
  c.request.exit = exit;
  return c;
}
child_process::exit_status exited(int code) {
  child_process::exit_status s;
  s.exited = true;
  s.exit_code = code;
  return s;
}
child_process::exit_status killed(int signal, bool by_judge = false) {
  child_process::exit_status s;
  s.signaled = true;
  s.signal = signal;
  s.killed_by_judge = by_judge;
  return s;
}
timing_facts timing_answered() {
  timing_facts t;
  t.answer = judge_wire::timing_answer{};
  return t;
}
} // namespace

TEST_CASE("calls that reported ok with right outputs are accepted", "[verdict]") {
  const auto d = decide_case({ok_call(), ok_call()}, std::nullopt);
  CHECK(d.v == verdict::accepted);
}

TEST_CASE("a wrong element is a wrong answer that names index, row, column, expected and got", "[verdict]") {
  auto c = ok_call();
  mismatch m;
  m.buffer = "C";
  m.count = 3;
  m.total = 777777;
  m.first_index = 778;
  m.first_coords = {1, 1};
  m.expected = 1.5;
  m.got = 2.5f;
  c.wrong = m;
  const auto d = decide_case({ok_call(), c}, std::nullopt);
  CHECK(d.v == verdict::wrong_answer);
  CAPTURE(d.message);
  CHECK(contains(d.message, "checked call 2"));
  CHECK(contains(d.message, "3 of 777777"));
  CHECK(contains(d.message, "row 1, col 1"));
  CHECK(contains(d.message, "expected 1.5"));
  CHECK(contains(d.message, "got 2.5"));
}

TEST_CASE("a poisoned element is explained as never written", "[verdict]") {
  auto c = ok_call();
  mismatch m;
  m.buffer = "C";
  m.count = 1;
  m.total = 4;
  m.first_index = 3;
  m.first_coords = {3};
  m.got = -1.7e38f;
  c.wrong = m;
  const auto d = decide_case({c}, std::nullopt);
  CHECK(d.v == verdict::wrong_answer);
  CHECK(contains(d.message, "never written"));
}

TEST_CASE("a runner that exits with code 0 before reporting is a run-time error, never accepted", "[verdict]") {
  const auto d = decide_case({unanswered(request_outcome::runner_ended, exited(0))}, std::nullopt);
  CHECK(d.v == verdict::run_time_error);
  CAPTURE(d.message);
  CHECK(contains(d.message, "exited with code 0 before reporting a result"));
  CHECK(contains(d.message, "exit() inside solve()"));
}

TEST_CASE("the exit() hint is given only for exit code 0 after hello", "[verdict]") {
  CHECK_FALSE(contains(decide_case({unanswered(request_outcome::runner_ended, exited(1))}, std::nullopt).message,
                       "exit() inside"));
  auto before_hello = unanswered(request_outcome::runner_ended, exited(0));
  before_hello.request.before_hello = true;
  const auto d = decide_case({before_hello}, std::nullopt);
  CHECK(d.v == verdict::run_time_error);
  CAPTURE(d.message);
  CHECK(contains(d.message, "the runner exited with code 0 before saying hello"));
  CHECK_FALSE(contains(d.message, "exit() inside"));
}

TEST_CASE("a runner killed by a signal is a run-time error that names the signal", "[verdict]") {
  const auto d = decide_case({ok_call(), unanswered(request_outcome::runner_ended, killed(11))}, std::nullopt);
  CHECK(d.v == verdict::run_time_error);
  CAPTURE(d.message);
  CHECK(contains(d.message, "checked call 2: the runner was killed by signal 11 (SIGSEGV) before reporting a result"));
}

TEST_CASE("a timeout is TLE even when nothing was reported", "[verdict]") {
  const auto d = decide_case({unanswered(request_outcome::timed_out, killed(9, true))}, std::nullopt);
  CHECK(d.v == verdict::time_limit_exceeded);
  CHECK(contains(d.message, "solve() did not return within the time limit"));
}

TEST_CASE("a checked call's timeout names the limit it ran past", "[verdict]") {
  auto c = unanswered(request_outcome::timed_out, killed(9, true));
  c.request.limit_seconds = 2;
  CHECK(decide_case({c}, std::nullopt).message ==
        "checked call 1: solve() did not return within the time limit of 2 s");
  c.request.limit_seconds = 4.2949673;
  CHECK(contains(decide_case({c}, std::nullopt).message, "within the time limit of 4.29 s"));
}

TEST_CASE("a runner that hangs before hello is a run-time error, not a time limit of solve()", "[verdict]") {
  auto c = unanswered(request_outcome::timed_out, killed(9, true));
  c.request.before_hello = true;
  const auto d = decide_case({c}, std::nullopt);
  CHECK(d.v == verdict::run_time_error);
  CHECK(contains(d.message, "did not say hello within the time limit"));
}

TEST_CASE("a system call the runner's filter denied is a run-time error naming the call and the rule", "[verdict]") {
  auto c = unanswered(request_outcome::denied, exited(4));
  c.request.denied = judge_wire::denied_answer{"clone", "no new processes (threads are fine)"};
  SECTION("during a call of solve()") {
    const auto d = decide_case({ok_call(), c}, std::nullopt);
    CHECK(d.v == verdict::run_time_error);
    CHECK(d.message == "checked call 2: solve() (or code it runs) called clone(), which the judge forbids: no new "
                       "processes (threads are fine)");
  }
  SECTION("before the runner said hello, as from a static constructor") {
    c.request.before_hello = true;
    const auto d = decide_case({c}, std::nullopt);
    CHECK(d.v == verdict::run_time_error);
    CHECK(contains(d.message, "the solution's code called clone(), which the judge forbids"));
  }
  SECTION("a kind of call rather than a named one") {
    c.request.denied =
        judge_wire::denied_answer{"a 32-bit or x32 system call", "no system calls of another architecture"};
    const auto d = decide_case({c}, std::nullopt);
    CHECK(contains(d.message, "solve() (or code it runs) made a 32-bit or x32 system call, which the judge forbids"));
  }
  SECTION("a runner ended by SIGSYS without a report") {
    const auto d = decide_case({unanswered(request_outcome::runner_ended, killed(SIGSYS))}, std::nullopt);
    CHECK(d.v == verdict::run_time_error);
    CHECK(contains(d.message, "checked call 1: solve() (or code it runs) made a system call the judge forbids"));
  }
}

TEST_CASE("failures of the runner itself are the judge's fault", "[verdict]") {
  const auto outcome =
      GENERATE(request_outcome::not_started, request_outcome::runner_failed, request_outcome::out_of_step);
  auto c = unanswered(outcome);
  c.request.detail = "it answered for case 'x' check 0 where case 'y' check 0 was due";
  const auto d = decide_case({c}, std::nullopt);
  CHECK(d.v == verdict::internal_error);
  CAPTURE(d.message);
  CHECK(contains(d.message, c.request.detail));
  CHECK(contains(d.message, "the judge's fault"));
}

TEST_CASE("what a process running learner code says of itself is its own failure", "[verdict]") {
  const auto outcome = GENERATE(request_outcome::runner_failed, request_outcome::out_of_step);
  auto c = unanswered(outcome);
  c.request.learner_host_code = true;
  c.request.detail = "cannot create output file 0.0.C.bin: No space left on device";
  const auto d = decide_case({c}, std::nullopt);
  CHECK(d.v == verdict::run_time_error);
  CAPTURE(d.message);
  CHECK(contains(d.message, c.request.detail));
  CHECK_FALSE(contains(d.message, "the judge's fault"));
}

TEST_CASE("runner facts map onto verdicts", "[verdict]") {
  auto c = ok_call();
  verdict expected = verdict::accepted;
  SECTION("a CUDA error is RTE") {
    c.answer->status = call_status::cuda_error;
    c.answer->error = "cudaErrorIllegalAddress";
    expected = verdict::run_time_error;
  }
  SECTION("a banned library is RTE") {
    c.answer->status = call_status::banned_library;
    c.answer->banned_loaded = {"libcublas.so.13"};
    expected = verdict::run_time_error;
  }
  SECTION("threads left running are RTE") {
    c.answer->status = call_status::stray_work;
    expected = verdict::run_time_error;
  }
  SECTION("a modified input is WA") {
    c.answer->inputs_modified = {{"A", 3}};
    expected = verdict::wrong_answer;
  }
  SECTION("a write past the end is WA") {
    c.answer->guard_violations = {{"C", {judge_wire::guard_side::after, 3}}};
    expected = verdict::wrong_answer;
  }
  SECTION("an output that cannot be read back is RTE") {
    c.output_missing = "output file /s/0.0.C.bin holds 12 bytes, not 16";
    expected = verdict::run_time_error;
  }
  SECTION("references that disagree are the judge's fault") {
    c.reference_disagrees = true;
    expected = verdict::internal_error;
  }
  CHECK(decide_case({c}, std::nullopt).v == expected);
}

TEST_CASE("the messages of runner facts name what was found where", "[verdict]") {
  auto c = ok_call();
  std::string expected;
  SECTION("a CUDA error is the runner's own words") {
    c.answer->status = call_status::cuda_error;
    c.answer->error = "cudaErrorIllegalAddress: an illegal memory access was encountered (after solve())";
    expected = "checked call 1: cudaErrorIllegalAddress: an illegal memory access was encountered (after solve())";
  }
  SECTION("a banned library is named") {
    c.answer->status = call_status::banned_library;
    c.answer->banned_loaded = {"cublas", "cublasLt"};
    expected = "solve() loaded cublas; cublasLt, which this problem bans";
  }
  SECTION("a modified input names the buffer and the first index") {
    c.answer->inputs_modified = {{"A", 17}};
    expected = "solve() wrote into its input A (first changed element at index 17); inputs are read-only";
  }
  SECTION("a write past the end counts bytes from the end") {
    c.answer->guard_violations = {{"C", {judge_wire::guard_side::after, 3}}};
    expected = "solve() wrote outside its buffers: C: 4 bytes after its end";
  }
  SECTION("a write before the start counts bytes from the start") {
    c.answer->guard_violations = {{"C", {judge_wire::guard_side::before, 1}}};
    expected = "solve() wrote outside its buffers: C: 1 bytes before its start";
  }
  const auto d = decide_case({c}, std::nullopt);
  CAPTURE(d.message);
  CHECK(contains(d.message, expected));
}

TEST_CASE("right on the checked calls but wrong on timed runs is WA, never fast", "[verdict]") {
  timing_facts t = timing_answered();
  t.answer->mismatched_samples = 7;
  t.answer->first_mismatch = judge_wire::sample_mismatch{{false, 3}, "C", 0, 2.5f, 1.5f};
  const auto d = decide_case({ok_call(), ok_call()}, t);
  CHECK(d.v == verdict::wrong_answer);
  CAPTURE(d.message);
  CHECK(contains(d.message, "7 timed run"));
  CHECK(contains(d.message, "timed run 3: C at index 0: expected 1.5, got 2.5"));
}

TEST_CASE("writing into an input during a timed run counts as a wrong run", "[verdict]") {
  timing_facts t = timing_answered();
  t.answer->inputs_modified_samples = 2;
  t.answer->first_input_modification = judge_wire::sample_input_modification{{true, 1}, "B", 5};
  const auto d = decide_case({ok_call()}, t);
  CHECK(d.v == verdict::wrong_answer);
  CAPTURE(d.message);
  CHECK(contains(d.message, "2 timed run"));
  CHECK(contains(d.message, "warmup run 1: solve() wrote into its input B (first changed element at index 5)"));
}

TEST_CASE("timed runs that fail are judged like checked calls", "[verdict]") {
  SECTION("a time out is TLE") {
    timing_facts t;
    t.request.outcome = request_outcome::timed_out;
    const auto d = decide_case({ok_call()}, t);
    CHECK(d.v == verdict::time_limit_exceeded);
    CHECK(d.message == "timed runs: solve() did not return within the time limit");
  }
  SECTION("a crash is RTE") {
    timing_facts t;
    t.request.outcome = request_outcome::runner_ended;
    t.request.exit = killed(6);
    const auto d = decide_case({ok_call()}, t);
    CHECK(d.v == verdict::run_time_error);
    CHECK(contains(d.message, "timed runs: the runner was killed by signal 6 (SIGABRT)"));
  }
  SECTION("a CUDA error is RTE with the runner's words") {
    timing_facts t = timing_answered();
    t.answer->status = call_status::cuda_error;
    t.answer->error = "cudaErrorLaunchFailure";
    const auto d = decide_case({ok_call()}, t);
    CHECK(d.v == verdict::run_time_error);
    CHECK(d.message == "timed runs: cudaErrorLaunchFailure");
  }
  SECTION("an answer for another case is the judge's fault") {
    timing_facts t;
    t.request.outcome = request_outcome::out_of_step;
    t.request.detail = "it sent the timing of case 'a' where case 'b' was due";
    CHECK(decide_case({ok_call()}, t).v == verdict::internal_error);
  }
}

TEST_CASE("the first failing case decides a solution", "[verdict]") {
  const auto d = decide_solution(
      {{{verdict::accepted, ""}}, {{verdict::wrong_answer, "x"}}, {{verdict::time_limit_exceeded, "y"}}});
  CHECK(d.v == verdict::wrong_answer);
  CHECK(decide_solution({}).v == verdict::internal_error);
  CHECK(decide_solution({{{verdict::accepted, ""}}}).v == verdict::accepted);
}

TEST_CASE("robustness cases never decide a solution whatever they did", "[verdict]") {
  const decision ac{verdict::accepted, ""}, wa{verdict::wrong_answer, "wa"}, rte{verdict::run_time_error, "rte"},
      tle{verdict::time_limit_exceeded, "tle"}, ie{verdict::internal_error, "not run"};
  // Each row: the cases in order (robustness ones flagged), and the verdict and message that must decide.
  struct row {
    const char* what;
    std::vector<case_outcome> cases;
    verdict v;
    std::string message;
  };
  const row r = GENERATE_COPY(
      row{"a crash past the limits leaves an accepted solution accepted", {{ac}, {rte, true}}, verdict::accepted, ""},
      row{"a wrong answer past the limits too", {{ac}, {wa, true}, {ac}}, verdict::accepted, ""},
      row{"and a hang", {{tle, true}, {ac}}, verdict::accepted, ""},
      row{"and a case the judge could not run", {{ac}, {ie, true}}, verdict::accepted, ""},
      row{"a failure within the limits still decides after one past them",
          {{rte, true}, {ac}, {wa}},
          verdict::wrong_answer,
          "wa"},
      row{"the first failure within the limits decides, not an earlier one past them",
          {{wa, true}, {rte}},
          verdict::run_time_error,
          "rte"},
      row{"the same cases graded strictly: the robustness case decides",
          {{ac}, {rte}, {ac}},
          verdict::run_time_error,
          "rte"},
      row{"only robustness cases: nothing decided", {{ac, true}}, verdict::internal_error, "no test case was run"});
  CAPTURE(r.what);
  const decision d = decide_solution(r.cases);
  CHECK(d.v == r.v);
  CHECK(d.message == r.message);
}

TEST_CASE("a wrong output that decides a case travels with its decision", "[verdict]") {
  call_facts c = ok_call();
  mismatch m;
  m.buffer = "C";
  m.count = 1;
  m.total = 8;
  m.first_index = 3;
  m.first_coords = {3};
  m.expected = 2.75;
  m.got = 2.875f;
  m.allowed = 1e-5;
  m.leetgpu = published_check{0.01, 0.01, 0};
  c.wrong = m;
  const decision d = decide_case({c}, std::nullopt);
  CHECK(d.v == verdict::wrong_answer);
  REQUIRE(d.wrong);
  CHECK(d.wrong->first_index == 3);
  REQUIRE(d.wrong->leetgpu);
  CHECK(d.wrong->leetgpu->outside == 0);
  CHECK_FALSE(decide_case({ok_call()}, std::nullopt).wrong);
}

TEST_CASE("verdict folder names round-trip", "[verdict]") {
  auto v = GENERATE(verdict::accepted, verdict::wrong_answer, verdict::compile_error, verdict::run_time_error,
                    verdict::time_limit_exceeded);
  CHECK(verdict_from_folder(folder_name(v)) == v);
  CHECK_FALSE(verdict_from_folder("accepted_maybe"));
}

TEST_CASE("an example declares that only a timed run catches it on a line of its own", "[verdict]") {
  CHECK(caught_when_timed("// Hostile: moves its work.\n//\n// Caught when timed.\n// Verdict: run-time error.\n"));
  CHECK(caught_when_timed("  //Caught when timed\r\n"));
  CHECK_FALSE(caught_when_timed("// Verdict: run-time error. Caught when timed, by the replay.\n"));
  CHECK_FALSE(caught_when_timed("int caught_when_timed = 1; // Caught when timed.\n"));
  CHECK_FALSE(caught_when_timed(""));
}

TEST_CASE("a CUDA error or a write outside the buffers is explained by memcheck on the call that failed",
          "[verdict][sanitizer]") {
  auto error = ok_call();
  error.answer->status = call_status::cuda_error;
  const sanitizer_plan after_error = plan_sanitizer({ok_call(), error}, std::nullopt);
  CHECK(after_error.tools == std::vector<sanitizer_tool>{sanitizer_tool::memcheck});
  CHECK(after_error.check == 1);
  auto guards = ok_call();
  guards.answer->guard_violations.push_back({"C", {judge_wire::guard_side::after, 0}});
  const sanitizer_plan after_guards = plan_sanitizer({guards}, std::nullopt);
  CHECK(after_guards.tools == std::vector<sanitizer_tool>{sanitizer_tool::memcheck});
  CHECK(after_guards.check == 0);
}

TEST_CASE("answers that differ between calls are explained by racecheck, then initcheck", "[verdict][sanitizer]") {
  timing_facts t = timing_answered();
  t.answer->mismatched_samples = 2;
  CHECK(plan_sanitizer({ok_call(), ok_call()}, t).tools ==
        std::vector<sanitizer_tool>{sanitizer_tool::racecheck, sanitizer_tool::initcheck});
  timing_facts crashed = timing_answered();
  crashed.answer->status = call_status::cuda_error;
  CHECK(plan_sanitizer({ok_call()}, crashed).tools == std::vector<sanitizer_tool>{sanitizer_tool::memcheck});
}

TEST_CASE("failures no sanitizer explains run none", "[verdict][sanitizer]") {
  auto wrong = ok_call();
  wrong.wrong = mismatch{};
  CHECK(plan_sanitizer({wrong}, std::nullopt).tools.empty());
  CHECK(plan_sanitizer({unanswered(request_outcome::timed_out)}, std::nullopt).tools.empty());
  CHECK(plan_sanitizer({ok_call(), ok_call()}, timing_answered()).tools.empty());
}
