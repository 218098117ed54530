#include "catch.hpp"

#include "verdict.hpp"

using namespace judge;

namespace {
call_facts ok_call() {
  call_facts c;
  c.reported = true;
  c.runner_status = "ok";
  return c;
}
bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }
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
  call_facts c;
  c.runner_died = true;
  c.death = "exited with code 0";
  const auto d = decide_case({c}, std::nullopt);
  CHECK(d.v == verdict::run_time_error);
  CHECK(contains(d.message, "exit() inside solve()"));
}

TEST_CASE("a timeout is TLE even when nothing was reported", "[verdict]") {
  call_facts c;
  c.timed_out = true;
  CHECK(decide_case({c}, std::nullopt).v == verdict::time_limit_exceeded);
}

TEST_CASE("runner facts map onto verdicts", "[verdict]") {
  auto c = ok_call();
  verdict expected = verdict::accepted;
  SECTION("a CUDA error is RTE") {
    c.runner_status = "cuda_error";
    c.runner_error = "cudaErrorIllegalAddress";
    expected = verdict::run_time_error;
  }
  SECTION("a banned library is RTE") {
    c.runner_status = "banned_library";
    c.banned_loaded = {"libcublas.so.13"};
    expected = verdict::run_time_error;
  }
  SECTION("threads left running are RTE") {
    c.runner_status = "stray_work";
    expected = verdict::run_time_error;
  }
  SECTION("a modified input is WA") {
    c.inputs_modified = {"A (first at index 3)"};
    expected = verdict::wrong_answer;
  }
  SECTION("a write past the end is WA") {
    c.guard_violations = {"C: 4 bytes after its end"};
    expected = verdict::wrong_answer;
  }
  SECTION("references that disagree are the judge's fault") {
    c.reference_disagrees = true;
    expected = verdict::internal_error;
  }
  CHECK(decide_case({c}, std::nullopt).v == expected);
}

TEST_CASE("right on the checked calls but wrong on timed runs is WA, never fast", "[verdict]") {
  timing_facts t;
  t.reported = true;
  t.mismatched_samples = 7;
  t.first_mismatch = "sample 3: index 0";
  const auto d = decide_case({ok_call(), ok_call()}, t);
  CHECK(d.v == verdict::wrong_answer);
  CHECK(contains(d.message, "7 timed run"));
}

TEST_CASE("the first failing case decides a solution", "[verdict]") {
  const auto d = decide_solution({{verdict::accepted, ""}, {verdict::wrong_answer, "x"}, {verdict::time_limit_exceeded, "y"}});
  CHECK(d.v == verdict::wrong_answer);
  CHECK(decide_solution({}).v == verdict::internal_error);
  CHECK(decide_solution({{verdict::accepted, ""}}).v == verdict::accepted);
}

TEST_CASE("verdict folder names round-trip", "[verdict]") {
  auto v = GENERATE(verdict::accepted, verdict::wrong_answer, verdict::compile_error, verdict::run_time_error,
                    verdict::time_limit_exceeded);
  CHECK(verdict_from_folder(folder_name(v)) == v);
  CHECK_FALSE(verdict_from_folder("accepted_maybe"));
}
