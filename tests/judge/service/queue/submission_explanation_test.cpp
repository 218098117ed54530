// A done submission's pending explanation in the queue: published with the verdict as pending, claimed
// by one GPU worker, stored once in the documents and the results store, given back when its worker stops.
#include "catch.hpp"
#include "results_fixtures.hpp"

#include "judge/report/contest_view.hpp"
#include "judge/report/report_json.hpp"
#include "judge/service/queue/submission_explanation.hpp"
#include "judge/service/queue/submission_queue.hpp"

using namespace judge;
using namespace judge::service;
using judge::testing::explained_result;
using judge_test::temp_folder;

namespace {
struct explaining_queue {
  temp_folder dir;
  results_db store{dir / "judge.db"};
  submission_queue queue{store};

  /// A submission to `problem` graded on a GPU and finished with `result`: its verdict published.
  std::int64_t graded(const solution_result& result, const std::string& problem = "matmul") {
    const std::int64_t id = queue.enqueue(result.author, problem, {{"a.cu", "x"}});
    queue.compiled(queue.claim_for_compile("compile 1")->id);
    REQUIRE(queue.claim_for_gpu("gpu GPU-1")->id == id);
    queue.finish(id, result, true, "GPU-1 NVIDIA H200");
    return id;
  }
};
} // namespace

TEST_CASE("a failure's verdict is published with its explanation pending, and the explanation replaces it once",
          "[service][sanitizer]") {
  explaining_queue f;
  const std::int64_t id = f.graded(explained_result("alice", false));
  const submission published = *f.queue.get(id);
  CHECK(published.now == state::done);
  CHECK(published.sanitizer == explanation_state::pending);
  CHECK((*published.result)["verdict"] == "RTE");
  CHECK((*published.result)["sanitizer"]["state"] == "pending");
  CHECK_FALSE((*published.result)["cases"][1].contains("sanitizer"));

  const auto claimed = f.queue.claim_explanation("gpu GPU-1");
  REQUIRE(claimed);
  CHECK(claimed->id == id);
  CHECK(claimed->sanitizer == explanation_state::pending); // to readers, until it is stored
  CHECK_FALSE(f.queue.claim_explanation("gpu GPU-2"));     // one worker runs it

  const solution_result explained = explained_result("alice", true);
  CHECK(f.queue.explained(id, explained));
  const submission after = *f.queue.get(id);
  CHECK(after.sanitizer == explanation_state::done);
  CHECK((*after.result)["sanitizer"]["state"] == "done");
  CHECK((*after.result)["cases"][1]["sanitizer"][0]["tool"] == "memcheck");
  CHECK((*after.result)["cases"][1]["sanitizer"][0]["findings"][0]["text"].get<std::string>().find("mine.cu:7") !=
        std::string::npos);
  // The rest of what was published is as it was: the verdict, its message, the other cases.
  nlohmann::json rest = *after.result, was = *published.result;
  rest.erase("sanitizer");
  was.erase("sanitizer");
  rest["cases"][1].erase("sanitizer");
  CHECK(rest == was);
  CHECK(after.finished_at == published.finished_at);
  // The results store too: the board's source keeps the same verdict, with the explanation.
  const auto stored = f.store.results_for("matmul");
  REQUIRE(stored.size() == 1);
  CHECK(stored[0].sanitizer.state == explanation_state::done);
  CHECK(stored[0].cases[1].sanitizer == explained.cases[1].sanitizer);
  // Exactly once, and nothing is left to claim.
  CHECK_FALSE(f.queue.explained(id, explained_result("alice", false)));
  CHECK_FALSE(f.queue.claim_explanation("gpu GPU-1"));
}

TEST_CASE("a contest view's explanation of a hidden case is left out, of a sample case kept", "[service][sanitizer]") {
  explaining_queue f;
  const std::int64_t hidden = f.graded(explained_result("alice", false));
  const std::int64_t sample = f.graded(explained_result("bob", false, true));
  CHECK_FALSE((*f.queue.get(hidden)->contest_result).contains("sanitizer"));
  CHECK((*f.queue.get(sample)->contest_result)["sanitizer"]["state"] == "pending");
  for (const auto& [id, on_sample] : {std::pair{hidden, false}, std::pair{sample, true}}) {
    REQUIRE(f.queue.claim_explanation("gpu GPU-1"));
    CHECK(f.queue.explained(id, explained_result("x", true, on_sample)));
  }
  const nlohmann::json hidden_view = *f.queue.get(hidden)->contest_result;
  CHECK_FALSE(hidden_view.contains("sanitizer"));
  CHECK_FALSE(hidden_view["cases"][1].contains("sanitizer"));
  const nlohmann::json sample_view = *f.queue.get(sample)->contest_result;
  CHECK(sample_view["sanitizer"]["state"] == "done");
  CHECK(sample_view["cases"][0]["sanitizer"][0]["tool"] == "memcheck");
}

TEST_CASE("an explanation a stopped worker held goes back to be claimed again, and a restart frees every one",
          "[service][sanitizer]") {
  explaining_queue f;
  const std::int64_t first = f.graded(explained_result("alice", false));
  const std::int64_t second = f.graded(explained_result("bob", false));
  REQUIRE(f.queue.claim_explanation("gpu GPU-1")->id == first);
  REQUIRE(f.queue.claim_explanation("gpu GPU-2")->id == second);
  CHECK(f.queue.release("gpu GPU-1") == 1);
  CHECK(f.queue.claim_explanation("gpu GPU-3")->id == first);
  CHECK(f.queue.recover() == 2);
  CHECK(f.queue.claim_explanation("gpu GPU-4")->id == first);
  CHECK(f.queue.get(first)->sanitizer == explanation_state::pending);
}

TEST_CASE("an explanation that could not run is stored failed with why, its plan kept", "[service][sanitizer]") {
  explaining_queue f;
  const std::int64_t id = f.graded(explained_result("alice", false));
  const submission held = *f.queue.claim_explanation("gpu GPU-1");
  CHECK(settle_explanation(f.queue, held, graded{std::nullopt, "problem matmul: cases.yaml is missing", false}) ==
        explanation_state::failed);
  const submission after = *f.queue.get(id);
  CHECK(after.sanitizer == explanation_state::failed);
  CHECK((*after.result)["sanitizer"]["detail"] == "problem matmul: cases.yaml is missing");
  CHECK((*after.result)["sanitizer"]["case"] == "square_1024");
  CHECK(f.store.results_for("matmul")[0].sanitizer.state == explanation_state::failed);
  // Interrupted: left pending, for release().
  const std::int64_t other = f.graded(explained_result("bob", false));
  const submission stopped = *f.queue.claim_explanation("gpu GPU-1");
  CHECK(settle_explanation(f.queue, stopped, graded{std::nullopt, "", true}) == explanation_state::pending);
  CHECK(f.queue.get(other)->sanitizer == explanation_state::pending);
}

TEST_CASE("explaining a submission on a host without a GPU fails its explanation, saying so", "[service][sanitizer]") {
  explaining_queue f;
  const std::int64_t id = f.graded(explained_result("alice", false), "vector_add");
  grading_setup setup;
  setup.problems_root = std::filesystem::path(JUDGE_SOURCE_DIR) / "problems";
  setup.testcases_root = std::filesystem::path(JUDGE_SOURCE_DIR) / "testcases";
  setup.scratch = f.dir / "scratch";
  setup.db = f.dir / "judge.db";
  device_memo no_gpu(std::chrono::minutes(10), [](bool) {
    probe_result r;
    r.no_device = true;
    r.error = "no CUDA device is present (a test's probe)";
    return r;
  });
  setup.devices = &no_gpu;
  const submission held = *f.queue.claim_explanation("gpu GPU-1");
  const graded g = explain_submission(held, setup);
  REQUIRE(g.result);
  CHECK(g.failure.empty());
  CHECK(g.result->sanitizer.state == explanation_state::failed);
  CHECK(g.result->sanitizer.detail == "no CUDA device: no CUDA device is present (a test's probe)");
  CHECK(g.result->v == verdict::run_time_error);
  CHECK(settle_explanation(f.queue, held, g) == explanation_state::failed);
  CHECK(f.queue.get(id)->sanitizer == explanation_state::failed);
  CHECK_FALSE(std::filesystem::exists(f.dir / "scratch" / ("submission-" + std::to_string(id))));
}
