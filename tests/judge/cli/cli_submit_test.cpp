// `judge submit` end to end: the real `judge` command against a real `judge serve` on 127.0.0.1. Here
// (no GPU) a solution that compiles ends "compiled, not run", exit 3, as `judge run` would.
#include "catch.hpp"
#include "judge_command.hpp"
#include "judge_server.hpp"
#include "results_fixtures.hpp"
#include "text_match.hpp"

#include <fmt/format.h>

#include <sys/stat.h>

#include "judge/service/queue/submission_queue.hpp"

#include <atomic>
#include <chrono>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

using judge_test::contains;
using judge_test::run_judge;
using judge_test::temp_folder;

namespace {
/// `judge serve` on a free port of 127.0.0.1 with a store of its own and three learners.
struct class_server {
  temp_folder dir;
  std::filesystem::path db = dir / "judge.db";
  std::map<std::string, std::string> tokens{{"alice", judge_test::add_account(db, "alice", "student")},
                                            {"bob", judge_test::add_account(db, "bob", "student")},
                                            {"carol", judge_test::add_account(db, "carol", "student")}};
  judge_test::judge_server server{db};
  std::string url = "http://127.0.0.1:" + std::to_string(server.port());

  /// The environment of a learner: their token and a config folder of their own.
  std::string as(const std::string& name) const {
    return fmt::format("JUDGE_TOKEN={} XDG_CONFIG_HOME={} ", tokens.at(name), (dir / "config").string());
  }
};

/// A server that grades nothing itself (--accept-only) and a stand-in for its GPU worker, on the same
/// store: the first submission is finished as a run-time error whose explanation is pending, and explained
/// (memcheck, one finding) once `explain` is set.
struct server_with_explaining_worker {
  temp_folder dir;
  std::filesystem::path db = dir / "judge.db";
  std::string alice = judge_test::add_account(db, "alice", "student");
  judge_test::judge_server server{db, {"--accept-only"}};
  std::string url = "http://127.0.0.1:" + std::to_string(server.port());
  std::atomic<bool> explain{false}, stop{false};
  std::atomic<bool> graded{false}, explained{false};
  std::thread worker{[this] {
    judge::results_db store(db);
    judge::service::submission_queue queue(store);
    while (!stop && !graded) {
      if (const auto s = queue.claim_for_compile("compile 1")) {
        queue.compiled(s->id);
        queue.claim_for_gpu("gpu GPU-1");
        queue.finish(s->id, judge::testing::explained_result("alice", false), true, "GPU-1 NVIDIA H200");
        graded = true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    while (!stop && !explain) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (stop) return;
    const auto held = queue.claim_explanation("gpu GPU-1");
    if (held) queue.explained(held->id, judge::testing::explained_result("alice", true));
    explained = true;
  }};
  ~server_with_explaining_worker() {
    stop = true;
    worker.join();
  }
  std::string as_alice() const {
    return fmt::format("JUDGE_TOKEN={} XDG_CONFIG_HOME={} ", alice, (dir / "config").string());
  }
};

std::string starter() {
  std::ifstream in(std::string(JUDGE_PROBLEMS_DIR) + "/matmul/starter.cu");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write(const std::filesystem::path& path, const std::string& text) { std::ofstream(path) << text; }
} // namespace

TEST_CASE("a submission through the server reports as local grading does and exits alike", "[submit][serve]") {
  class_server server;
  write(server.dir / "alice.cu", starter());
  const auto r = run_judge(fmt::format("submit matmul {} --server {}", (server.dir / "alice.cu").string(), server.url),
                           server.as("alice"));
  CAPTURE(r.output);
  CHECK(r.status == 3); // no CUDA device, as `judge run` here
  CHECK(contains(r.output, "submission 1: done"));
  CHECK(contains(r.output, "NR\n  | compiled, not run: no CUDA device"));
  CHECK(contains(r.output, "1 solution(s): 1 compiled, not run (no CUDA device)"));
  CHECK(contains(r.output, server.url + "/submissions/1"));
  // The report names the file sent, not the server's number for it.
  CHECK(contains(r.output, (server.dir / "alice.cu").string()));
}

TEST_CASE("a folder is submitted as its files and one with a subfolder or files of two folders is refused before "
          "sending",
          "[submit][serve]") {
  class_server server;
  const auto folder = server.dir / "alice";
  std::filesystem::create_directories(folder / "kernels");
  write(folder / "solve.cu", starter());
  SECTION("a subfolder") {
    write(folder / "kernels" / "tile.cuh", "// tile\n");
    const auto r =
        run_judge(fmt::format("submit matmul {} --server {}", folder.string(), server.url), server.as("alice"));
    CAPTURE(r.output);
    CHECK(r.status == 2);
    CHECK(contains(r.output, "kernels/tile.cuh: in a subfolder"));
    CHECK(contains(r.output, "one flat folder"));
  }
  SECTION("files of two folders") {
    write(folder / "kernels" / "tile.cuh", "// tile\n");
    const auto r = run_judge(fmt::format("submit matmul {} {} --server {}", (folder / "solve.cu").string(),
                                         (folder / "kernels" / "tile.cuh").string(), server.url),
                             server.as("alice"));
    CAPTURE(r.output);
    CHECK(r.status == 2);
    CHECK(contains(r.output, "tile.cuh: not in the folder of"));
  }
  SECTION("a flat folder") {
    write(folder / "tile.cuh", "// tile\n");
    std::filesystem::remove_all(folder / "kernels");
    const auto r =
        run_judge(fmt::format("submit matmul {} --server {}", folder.string(), server.url), server.as("alice"));
    CAPTURE(r.output);
    CHECK(r.status == 3);
    CHECK(contains(r.output, "submission 1: done"));
  }
}

TEST_CASE("a compile error through the server shows the compiler's message and exits 1", "[submit][serve]") {
  class_server server;
  write(server.dir / "broken.cu", "extern \"C\" void solve(const float* A, const float* B, float* C, int M, int N, "
                                  "int K) { undefined_name; }\n");
  const auto r = run_judge(fmt::format("submit matmul {} --server {}", (server.dir / "broken.cu").string(), server.url),
                           server.as("bob"));
  CAPTURE(r.output);
  CHECK(r.status == 1);
  CHECK(contains(r.output, "CE"));
  CHECK(contains(r.output, "undefined_name"));
}

TEST_CASE("no-wait returns the submission's id at once", "[submit][serve]") {
  class_server server;
  write(server.dir / "a.cu", starter());
  const auto r =
      run_judge(fmt::format("submit matmul {} --server {} --no-wait", (server.dir / "a.cu").string(), server.url),
                server.as("carol"));
  CAPTURE(r.output);
  CHECK(r.status == 0);
  CHECK(contains(r.output, "1\n"));
  CHECK(contains(r.output, "submission 1 queued; see " + server.url + "/submissions/1"));
}

TEST_CASE("what the server refuses is a usage error with its message", "[submit][serve]") {
  class_server server;
  write(server.dir / "a.cu", starter());
  const std::string file = (server.dir / "a.cu").string();
  SECTION("an unknown problem") {
    const auto r = run_judge(fmt::format("submit nope {} --server {}", file, server.url), server.as("alice"));
    CHECK(r.status == 2);
    CHECK(contains(r.output, "the server has no problem \"nope\"; it has: "));
    CHECK(contains(r.output, "matmul"));
    CHECK_FALSE(contains(r.output, "/api/v1/problems"));
  }
  SECTION("an unknown token") {
    const auto r = run_judge(fmt::format("submit matmul {} --server {}", file, server.url), "JUDGE_TOKEN=jt_nobody ");
    CHECK(r.status == 2);
    CHECK(contains(r.output, "check the token"));
  }
}

TEST_CASE("submit refuses before sending anything when a file or the token file is wrong", "[submit]") {
  temp_folder dir;
  write(dir / "a.cu", "x");
  const std::string config = "XDG_CONFIG_HOME=" + dir.path().string() + " JUDGE_TOKEN= ";
  SECTION("a missing file") {
    const auto r = run_judge("submit matmul " + (dir / "nope.cu").string() + " --server http://127.0.0.1:9", config);
    CHECK(r.status == 2);
    CHECK(contains(r.output, "nope.cu: no such file"));
  }
  SECTION("a token file others can read") {
    std::filesystem::create_directories(dir / "gpu-judge");
    write(dir / "gpu-judge" / "token", "jt_secret\n");
    ::chmod((dir / "gpu-judge" / "token").c_str(), 0644);
    const auto r = run_judge("submit matmul " + (dir / "a.cu").string() + " --server http://127.0.0.1:9", config);
    CHECK(r.status == 2);
    CHECK(contains(r.output, "others can read this token file"));
  }
  SECTION("a server that is not there") {
    const auto r =
        run_judge("submit matmul " + (dir / "a.cu").string() + " --server http://127.0.0.1:9", "JUDGE_TOKEN=jt_x ");
    CHECK(r.status == 2);
    CHECK(contains(r.output, "cannot reach the judge at http://127.0.0.1:9"));
    CHECK(contains(r.output, "the connection was refused or the host could not be reached"));
  }
}

TEST_CASE("submit prints a failure's verdict without waiting for its explanation, and says where it follows",
          "[submit][serve][sanitizer]") {
  server_with_explaining_worker w;
  write(w.dir / "alice.cu", starter());
  const auto began = std::chrono::steady_clock::now();
  const auto r =
      run_judge(fmt::format("submit matmul {} --server {}", (w.dir / "alice.cu").string(), w.url), w.as_alice());
  CAPTURE(r.output);
  CHECK(std::chrono::steady_clock::now() - began < std::chrono::seconds(60));
  CHECK_FALSE(w.explained); // the worker explains only after submit has returned
  CHECK(r.status == 1);     // the verdict's status: the explanation never changes it
  CHECK(contains(r.output, "RTE"));
  CHECK(contains(r.output, "compute-sanitizer on square_1024: pending (memcheck, at most 40 s)"));
  CHECK(contains(r.output, "judge: compute-sanitizer's explanation of case square_1024 follows on the server"));
  CHECK(contains(r.output, w.url + "/submissions/1, or wait for it with --wait-sanitizer"));
}

TEST_CASE("submit --wait-sanitizer prints the verdict, then the explanation once the server has it",
          "[submit][serve][sanitizer]") {
  server_with_explaining_worker w;
  write(w.dir / "alice.cu", starter());
  std::thread later([&] {
    while (!w.graded && !w.stop) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::this_thread::sleep_for(std::chrono::seconds(2)); // after submit has printed the verdict
    w.explain = true;
  });
  const auto r = run_judge(
      fmt::format("submit matmul {} --server {} --wait-sanitizer", (w.dir / "alice.cu").string(), w.url), w.as_alice());
  w.explain = true;
  later.join();
  CAPTURE(r.output);
  CHECK(r.status == 1);
  const auto verdict = r.output.find("RTE");
  const auto finding = r.output.find("invalid global write of 4 bytes in k at mine.cu:7");
  REQUIRE(verdict != std::string::npos);
  REQUIRE(finding != std::string::npos);
  CHECK(verdict < finding);
  CHECK(contains(r.output, "submission 1: compute-sanitizer on square_1024 pending"));
  CHECK(contains(r.output, "compute-sanitizer on square_1024 (explains; never changes the verdict or the time):"));
}
