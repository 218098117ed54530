// A problem's dashboard from made-up submissions, without a store: what each submission came to, the
// counts over every submission and over each account's latest, and the problem's part of the queue with
// its ages.
#include "catch.hpp"

#include "judge/base/utc_time.hpp"
#include "judge/report/report_json.hpp"
#include "judge/service/queue/problem_dashboard.hpp"
#include "results_fixtures.hpp"

#include <algorithm>

using namespace judge;
using namespace judge::service;

namespace {
constexpr std::int64_t now = 1796000000; // 2026-11-30T...Z: the moment ages are taken at

std::size_t at(const std::string& outcome) {
  return static_cast<std::size_t>(std::find(outcome_names.begin(), outcome_names.end(), outcome) -
                                  outcome_names.begin());
}

submission made(std::int64_t id, const std::string& account, state now_in, std::optional<verdict> v = {},
                bool not_run = false) {
  submission s;
  s.id = id;
  s.account = account;
  s.problem = "matmul";
  s.now = now_in;
  s.submitted_at = utc_text(now - 600);
  if (v) {
    solution_result r = testing::accepted_result(account, 1000);
    r.v = *v;
    r.compiled_only = not_run;
    s.result = to_json(r);
  }
  return s;
}
} // namespace

TEST_CASE("a submission's outcome is its verdict, NR when it was not run, failed, or waiting", "[dashboard]") {
  CHECK(outcome_of(made(1, "a", state::done, verdict::accepted)) == "AC");
  CHECK(outcome_of(made(1, "a", state::done, verdict::compile_error)) == "CE");
  CHECK(outcome_of(made(1, "a", state::done, verdict::accepted, true)) == "NR");
  CHECK(outcome_of(made(1, "a", state::failed)) == "failed");
  for (state s : {state::queued, state::compiling, state::compiled, state::running})
    CHECK(outcome_of(made(1, "a", s)) == "waiting");
}

TEST_CASE("the dashboard counts every submission and each account's latest", "[dashboard]") {
  // Newest first, as the queue lists them: bob's latest compiled but not run, his first a compile error;
  // alice's latest accepted after a wrong answer; carol's waiting; dave's the judge could not grade.
  const std::vector<submission> listed = {
      made(6, "carol", state::queued),
      made(5, "bob", state::done, verdict::accepted, true),
      made(4, "alice", state::done, verdict::accepted),
      made(3, "dave", state::failed),
      made(2, "alice", state::done, verdict::wrong_answer),
      made(1, "bob", state::done, verdict::compile_error),
  };
  const problem_dashboard d = build_dashboard("matmul", listed, {}, now);
  CHECK(d.problem == "matmul");
  CHECK(d.accounts == 4);
  CHECK(d.submissions.size() == 6);
  CHECK(d.all[at("AC")] == 1);
  CHECK(d.all[at("NR")] == 1);
  CHECK(d.all[at("WA")] == 1);
  CHECK(d.all[at("CE")] == 1);
  CHECK(d.all[at("failed")] == 1);
  CHECK(d.all[at("waiting")] == 1);
  CHECK(d.latest[at("AC")] == 1);
  CHECK(d.latest[at("NR")] == 1);
  CHECK(d.latest[at("WA")] == 0);
  CHECK(d.latest[at("CE")] == 0);
  CHECK(d.latest[at("failed")] == 1);
  CHECK(d.latest[at("waiting")] == 1);
}

TEST_CASE("the dashboard's queue is the problem's part of the line with its ages", "[dashboard]") {
  submission running = made(7, "alice", state::running);
  running.started_at = utc_text(now - 90);
  running.worker = "gpu GPU-1";
  submission waiting = made(8, "bob", state::queued);
  waiting.submitted_at = utc_text(now - 30);
  // Given back to the queue once: when it was first taken says nothing of its wait now.
  waiting.started_at = utc_text(now - 20);
  submission elsewhere = made(9, "carol", state::queued);
  elsewhere.problem = "softmax";
  const std::vector<line_place> line = {{running, 0, 0}, {elsewhere, 1, 2}, {waiting, 2, 2}};
  const problem_dashboard d = build_dashboard("matmul", {waiting, running}, line, now);
  REQUIRE(d.line.size() == 2);
  CHECK(d.line[0].place.s.id == 7);
  CHECK(d.line[0].age_seconds == 600);
  CHECK(d.line[0].held_seconds == 90);
  CHECK(d.line[1].place.s.id == 8);
  CHECK(d.line[1].place.position == 2);
  CHECK(d.line[1].place.waiting == 2);
  CHECK(d.line[1].age_seconds == 30);
  CHECK(d.line[1].held_seconds == 0);
}

TEST_CASE("an unreadable or empty moment is no time ago and a verdict the judge does not know counts as IE",
          "[dashboard]") {
  CHECK(seconds_since("", now) == 0);
  CHECK(seconds_since("yesterday", now) == 0);
  CHECK(seconds_since(utc_text(now + 5), now) == 0); // a clock that went back is not a negative age
  submission odd = made(1, "a", state::done, verdict::accepted);
  (*odd.result)["verdict"] = "XYZ";
  CHECK(build_dashboard("matmul", {odd}, {}, now).all[at("IE")] == 1);
}
