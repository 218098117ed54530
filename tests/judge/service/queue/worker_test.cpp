// `judge worker`, the GPU worker `judge serve` starts per GPU, run on its own (label cpu): it grades the
// compiled submissions of the queue; without a GPU they end "not run: no CUDA device", as with `judge run`.
#include "catch.hpp"
#include "judge/base/file_input.hpp"
#include "results_fixtures.hpp"
#include "judge/service/queue/submission_queue.hpp"
#include "text_match.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

using namespace judge;
using judge_test::contains;
using judge_test::temp_folder;

namespace {
/// `judge worker` on the store `db`, its output in `log`, for a UUID no GPU has: the worker sees no
/// device, as on a machine without one. The child's pid (negative if it could not fork).
pid_t start_worker(const std::filesystem::path& db, const std::filesystem::path& log) {
  const pid_t pid = fork();
  if (pid != 0) return pid;
  if (!freopen(log.c_str(), "w", stdout)) _exit(126);
  setenv("CUDA_VISIBLE_DEVICES", "GPU-00000000-0000-0000-0000-000000000000", 1);
  execl(JUDGE_CLI, JUDGE_CLI, "worker", "--gpu", "GPU-00000000-0000-0000-0000-000000000000", "--db", db.c_str(),
        static_cast<char*>(nullptr));
  _exit(127);
}
} // namespace

TEST_CASE("a GPU worker grades compiled submissions of a problem together in one run and holds none when stopped",
          "[service]") {
  temp_folder dir;
  const auto db = dir / "judge.db";
  results_db store(db);
  service::submission_queue queue(store);
  const std::string source =
      read_file(std::filesystem::path(JUDGE_SOURCE_DIR) / "solutions" / "vector_add" / "example.cu");
  const auto id = queue.enqueue("alice", "vector_add", {{"a.cu", source}});
  const auto broken = queue.enqueue("bob", "vector_add", {{"b.cu", "int x = ;\n"}});
  const auto other = queue.enqueue("carol", "vector_add", {{"c.cu", "// carol\n" + source}});
  for (int i = 0; i < 3; ++i) queue.compiled(queue.claim_for_compile("test")->id);

  const auto log = dir / "worker.log";
  const pid_t pid = start_worker(db, log);
  REQUIRE(pid >= 0);
  for (int i = 0; i < 1800 && queue.count(service::state::done) < 3; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  kill(pid, SIGTERM);
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status));
  const auto s = queue.get(id);
  REQUIRE(s->now == service::state::done);
  CHECK(s->worker == "gpu GPU-00000000-0000-0000-0000-000000000000");
  REQUIRE(s->result);
  CHECK(contains((*s->result)["message"], "not run: no CUDA device"));
  CHECK(queue.count(service::state::running) == 0);
  CHECK((*queue.get(broken)->result)["verdict"] == "CE");
  CHECK((*queue.get(other)->result)["author"] == "carol");
  CHECK(queue.get(other)->now == service::state::done);
  // The batch's line in the worker's log says where its time went, phase by phase.
  const std::string logged = read_file(log);
  CHECK(contains(logged, "batch of 3 vector_add submission(s) in "));
  CHECK(contains(logged, ": problem "));
}

TEST_CASE("an idle GPU worker probes its GPU before any submission comes", "[service]") {
  temp_folder dir;
  const auto db = dir / "judge.db";
  { results_db store(db); }
  const auto log = dir / "worker.log";
  const pid_t pid = start_worker(db, log);
  REQUIRE(pid >= 0);
  // So that a class's first batch does not wait for the probes: here there is no GPU, and it says so.
  std::string logged;
  for (int i = 0; i < 600 && !contains(logged, "GPU probed while idle"); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    logged = read_file(log);
  }
  kill(pid, SIGTERM);
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK(contains(logged, "gpu GPU-00000000-0000-0000-0000-000000000000: GPU probed while idle: "));
}

TEST_CASE("a GPU worker grades what is compiled before it runs an explanation waiting since before, which it stores",
          "[service][sanitizer]") {
  temp_folder dir;
  const auto db = dir / "judge.db";
  results_db store(db);
  service::submission_queue queue(store);
  // A failure graded earlier whose explanation waits, then a new submission compiled and waiting too.
  const auto failed = queue.enqueue("alice", "vector_add", {{"a.cu", "// a\n"}});
  queue.compiled(queue.claim_for_compile("test")->id);
  REQUIRE(queue.claim_for_gpu("gpu GPU-old")->id == failed);
  queue.finish(failed, judge::testing::explained_result("alice", false), true, "GPU-old NVIDIA H200");
  const std::string source =
      read_file(std::filesystem::path(JUDGE_SOURCE_DIR) / "solutions" / "vector_add" / "example.cu");
  const auto fresh = queue.enqueue("bob", "vector_add", {{"b.cu", source}});
  queue.compiled(queue.claim_for_compile("test")->id);

  const auto log = dir / "worker.log";
  const pid_t pid = start_worker(db, log);
  REQUIRE(pid >= 0);
  for (int i = 0; i < 1800 && queue.get(failed)->sanitizer == explanation_state::pending; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  kill(pid, SIGTERM);
  int status = 0;
  waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status));
  const std::string logged = read_file(log);
  CAPTURE(logged);
  CHECK(queue.get(fresh)->now == service::state::done);
  // Without a GPU here the explanation cannot run: it says so, and the verdict stays as it was.
  const auto explained = queue.get(failed);
  CHECK(explained->sanitizer == explanation_state::failed);
  CHECK(contains((*explained->result)["sanitizer"]["detail"], "no CUDA device"));
  CHECK((*explained->result)["verdict"] == "RTE");
  const auto graded = logged.find("submission " + std::to_string(fresh) + " (bob, vector_add): done");
  const auto explaining = logged.find("submission " + std::to_string(failed) +
                                      " (alice, vector_add): compute-sanitizer's explanation failed");
  REQUIRE(graded != std::string::npos);
  REQUIRE(explaining != std::string::npos);
  CHECK(graded < explaining);
}
