#include "judge/report/contest_view.hpp"
#include "judge/service/api_json.hpp"
#include "catch.hpp"
#include "judge/report/report_json.hpp"
#include "judge/report/report_terminal.hpp"
#include "results_fixtures.hpp"
#include "judge/service/queue/submission_grading.hpp"

using namespace judge;
using namespace judge::service;
using judge::testing::accepted_result;
using judge_test::temp_folder;

namespace {
std::int64_t stored_results(results_db& store) {
  sqlite::statement st = store.connection().prepare("SELECT COUNT(*) FROM submissions");
  st.step();
  return st.get_int(0);
}

struct queue_fixture {
  temp_folder dir;
  results_db store{dir / "judge.db"};
  submission_queue queue{store};
  submission claimed() {
    queue.enqueue("alice", "matmul", {{"a.cu", "x"}});
    return *queue.claim_for_compile("compile 1");
  }
};

solution_result compiled_only() {
  solution_result r = accepted_result("alice", 0);
  r.v = verdict::internal_error;
  r.compiled_only = true;
  r.cases.clear();
  r.device = {};
  return r;
}
} // namespace

TEST_CASE("settle: a compile-only build that compiled waits for a GPU", "[service]") {
  queue_fixture f;
  const submission s = f.claimed();
  CHECK(settle(f.queue, s, graded{compiled_only(), "", false}, true) == state::compiled);
  CHECK(f.queue.get(s.id)->now == state::compiled);
  CHECK(stored_results(f.store) == 0);
}

TEST_CASE("settle: a compile error is final and recorded", "[service]") {
  queue_fixture f;
  const submission s = f.claimed();
  solution_result r = accepted_result("alice", 0);
  r.v = verdict::compile_error;
  r.cases.clear();
  r.compile_output = "a.cu(1): error: expected an expression";
  CHECK(settle(f.queue, s, graded{r, "", false}, true) == state::done);
  CHECK((*f.queue.get(s.id)->result)["verdict"] == "CE");
  CHECK(stored_results(f.store) == 1);
}

TEST_CASE("settle: without a GPU a compiled submission ends not run and is not recorded", "[service]") {
  queue_fixture f;
  const submission s = f.claimed();
  CHECK(settle(f.queue, s, graded{compiled_only(), "", false}, false) == state::done);
  CHECK((*f.queue.get(s.id)->result)["verdict"] == "NR");
  CHECK_FALSE(f.queue.get(s.id)->device);
  CHECK(stored_results(f.store) == 0);
}

TEST_CASE("settle: the judge's own failure fails the submission with why and an interruption leaves it", "[service]") {
  queue_fixture f;
  const submission s = f.claimed();
  CHECK(settle(f.queue, s, graded{std::nullopt, "", true}, true) == state::compiling);
  CHECK(f.queue.get(s.id)->now == state::compiling);
  solution_result broken = accepted_result("alice", 0);
  broken.v = verdict::internal_error;
  broken.cases.clear();
  broken.message = "nvcc not found";
  CHECK(settle(f.queue, s, graded{broken, "", false}, true) == state::failed);
  CHECK(f.queue.get(s.id)->error == "nvcc not found");
  const submission t = f.claimed();
  CHECK(settle(f.queue, t, graded{std::nullopt, "problem matmul: cases.yaml is missing", false}, true) ==
        state::failed);
  CHECK(f.queue.get(t.id)->error == "problem matmul: cases.yaml is missing");
}

TEST_CASE("settle: a graded run is done and recorded with its GPU", "[service]") {
  queue_fixture f;
  const submission s = f.claimed();
  f.queue.compiled(s.id);
  const submission running = *f.queue.claim_for_gpu("gpu GPU-1");
  solution_result r = accepted_result("alice", 1234);
  r.device.uuid = "GPU-1";
  CHECK(settle(f.queue, running, graded{r, "", false}, false) == state::done);
  CHECK(f.queue.get(s.id)->gpu == "GPU-1 NVIDIA H200");
  CHECK((*f.queue.get(s.id)->device)["uuid"] == "GPU-1");
  CHECK(stored_results(f.store) == 1);
}

TEST_CASE("students on a contest server see the contest view and instructors everything", "[service]") {
  queue_fixture f;
  const auto id = f.queue.enqueue("alice", "matmul", {{"a.cu", "x"}});
  const solution_result r = judge::testing::wrong_result("alice");
  f.queue.finish(id, r, true, "");
  const submission s = *f.queue.get(id);
  CHECK(submission_json(s, true)["result"] == to_json(contest_view(r)));
  CHECK(submission_json(s, false)["result"] == to_json(r));
  CHECK(submission_json(s, false)["state"] == "done");
}

TEST_CASE("a submission of one .cu file is compiled as that file, and of several as their folder", "[service]") {
  temp_folder dir;
  submission one;
  one.id = 7;
  one.files = {{"mine.cu", "__global__ void k() {}"}};
  const std::filesystem::path staged = stage_submission(one, dir.path());
  CHECK(staged.filename() == "submission-7");
  // The file alone: its compile is keyed by its content, as `judge run`'s of the same file.
  CHECK(submission_entry(one, staged).source == staged / "mine.cu");
  CHECK(std::filesystem::is_regular_file(submission_entry(one, staged).source));

  submission two = one;
  two.files.push_back({"tile.cuh", "#pragma once"});
  CHECK(submission_entry(two, stage_submission(two, dir.path())).source == staged);

  submission header_only = one;
  header_only.files = {{"mine.cuh", "#pragma once"}};
  CHECK(submission_entry(header_only, stage_submission(header_only, dir.path())).source == staged);
}
