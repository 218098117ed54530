// The judge's command line end to end, without a GPU: usage and spec errors, bad paths, compiling
// without a device. Each test runs the real `judge` executable.
#include "catch.hpp"
#include "judge/base/file_input.hpp"
#include "judge_command.hpp"
#include "judge/store/results_db.hpp"
#include "text_match.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

namespace fs = std::filesystem;

using judge_test::contains;
using judge_test::scratch_root;

namespace {
judge_test::command_result judge_cli(const std::string& args) { return judge_test::run_judge(args); }
} // namespace

TEST_CASE("judge --help lists the subcommands and exits 0", "[cli]") {
  const auto r = judge_cli("--help");
  CHECK(r.status == 0);
  for (const char* sub : {"run", "verify", "list", "cases", "new", "new-problem", "leaderboard", "history", "cache"}) {
    CAPTURE(sub);
    CHECK(contains(r.output, sub));
  }
}

TEST_CASE("judge --help-env lists every variable the judge reads and exits 0", "[cli]") {
  const auto r = judge_cli("--help-env");
  CHECK(r.status == 0);
  for (const char* name :
       {"JUDGE_ROOT", "JUDGE_CACHE_DIR", "JUDGE_SECRET_FILE", "JUDGE_ARCHS", "JUDGE_NVCC", "JUDGE_HOST_CXX",
        "JUDGE_NCU", "JUDGE_COMPUTE_SANITIZER", "JUDGE_LOCK_DIR", "JUDGE_SERVER", "JUDGE_TOKEN", "JUDGE_JOB_TOKEN"}) {
    CAPTURE(name);
    CHECK(contains(r.output, name));
  }
  CHECK(contains(r.output, "unset: /tmp/gpu-judge-locks"));
}

TEST_CASE("judge serve --help shows the defaults of the server's options", "[cli]") {
  const auto r = judge_cli("serve --help");
  CHECK(r.status == 0);
  // Written once, in service/queue/server_options.hpp; the help shows the bound fields' own.
  CHECK(contains(r.output, "127.0.0.1:8080"));
  CHECK(contains(r.output, "/tmp/gpu-judge-slurm-%j.out"));
  CHECK(contains(r.output, "16G"));
}

TEST_CASE("judge list shows every shipped problem with its signature", "[cli]") {
  const auto r = judge_cli("list");
  CHECK(r.status == 0);
  CHECK(contains(r.output, "matmul"));
  CHECK(contains(r.output, "vector_add"));
  CHECK(contains(r.output, "extern \"C\" void solve(const float* A, const float* B, float* C, int M, int N, int K)"));
}

TEST_CASE("judge cases marks hidden cases and shows the mission shapes", "[cli]") {
  const auto r = judge_cli("cases matmul");
  CHECK(r.status == 0);
  CHECK(contains(r.output, "1024x512x1024"));
  CHECK(contains(r.output, "1001x513x777"));
  CHECK(contains(r.output, "hidden"));
  CHECK(contains(r.output, "sample"));
  CHECK(r.output.rfind("case                           visibility shape              timed\n", 0) == 0);
}

TEST_CASE("an unknown problem is one clear line and exit status 2", "[cli]") {
  const auto r = judge_cli("no_such_problem");
  CHECK(r.status == 2);
  CHECK(contains(r.output, "no_such_problem"));
  CHECK(contains(r.output, "matmul")); // the known problems are listed
}

TEST_CASE("a problem without solutions yet says how to start one", "[cli]") {
  scratch_root root;
  const auto r = judge_cli(root.root_arg() + " matmul");
  CHECK(r.status == 2);
  CHECK(contains(r.output, "bin/judge new matmul"));
}

TEST_CASE("bad paths are usage errors naming the path", "[cli]") {
  scratch_root root;
  SECTION("a path that does not exist") {
    const auto r = judge_cli(root.root_arg() + " matmul /no/such/file.cu");
    CHECK(r.status == 2);
    CHECK(contains(r.output, "/no/such/file.cu"));
  }
  SECTION("a folder without .cu files") {
    fs::create_directories(root.dir / "empty");
    const auto r = judge_cli(root.root_arg() + " matmul " + (root.dir / "empty").string());
    CHECK(r.status == 2);
    CHECK(contains(r.output, "no .cu files"));
  }
  SECTION("two solutions with the same name") {
    root.write("a/alice.cu", "");
    root.write("b/alice.cu", "");
    const auto r = judge_cli(root.root_arg() + " matmul " + (root.dir / "a/alice.cu").string() + " " +
                             (root.dir / "b/alice.cu").string());
    CHECK(r.status == 2);
    CHECK(contains(r.output, "alice"));
  }
  SECTION("a file name that is not UTF-8") {
    const fs::path odd = root.dir / "odd" / "caf\xe9.cu";
    root.write(fs::path("odd") / "caf\xe9.cu", "");
    const auto r = judge_cli(root.root_arg() + " matmul " + (root.dir / "odd").string());
    CHECK(r.status == 2);
    CHECK(contains(r.output, "UTF-8"));
  }
}

TEST_CASE("a broken problem.yaml stops everything with file, line and field", "[cli]") {
  scratch_root root;
  SECTION("malformed YAML") {
    root.write("problems/matmul/problem.yaml", "title: [unclosed\n");
    const auto r = judge_cli(root.root_arg() + " cases matmul");
    CHECK(r.status == 2);
    CHECK(contains(r.output, "problem.yaml:"));
  }
  SECTION("an unknown field") {
    const std::string text = judge::read_file(root.dir / "problems/matmul/problem.yaml");
    root.write("problems/matmul/problem.yaml", text + "tolerence: 1\n");
    const auto r = judge_cli(root.root_arg() + " cases matmul");
    CHECK(r.status == 2);
    CHECK(contains(r.output, "tolerence"));
  }
  SECTION("a case whose buffer would overflow 32-bit sizes") {
    root.write("testcases/matmul/cases.yaml",
               "cases:\n  - {name: huge, sizes: {M: 2000000000, N: 2000000000, K: 4}, seed: 1}\n");
    const auto r = judge_cli(root.root_arg() + " cases matmul");
    CHECK(r.status == 2);
    CHECK(contains(r.output, "huge"));
  }
  SECTION("a negative size") {
    root.write("testcases/matmul/cases.yaml", "cases:\n  - {name: negative, sizes: {M: -1, N: 2, K: 3}, seed: 1}\n");
    const auto r = judge_cli(root.root_arg() + " cases matmul");
    CHECK(r.status == 2);
    CHECK(contains(r.output, "negative"));
  }
}

TEST_CASE("judge new copies the starter once and refuses to overwrite", "[cli]") {
  scratch_root root;
  const auto first = judge_cli(root.root_arg() + " new matmul alice");
  CHECK(first.status == 0);
  CHECK(fs::exists(root.dir / "solutions/matmul/alice.cu"));
  const auto second = judge_cli(root.root_arg() + " new matmul alice");
  CHECK(second.status == 2);
  CHECK(contains(second.output, "already exists"));
}

TEST_CASE("judge new refuses an author name that would make a hidden or odd file", "[cli]") {
  scratch_root root;
  const std::string name = GENERATE(".", "..", ".hidden", "-x", "a/b", "");
  const auto r = judge_cli(root.root_arg() + " new matmul '" + name + "'");
  CAPTURE(name, r.output);
  CHECK(r.status == 2);
  CHECK_FALSE(fs::exists(root.dir / "solutions/matmul"));
}

TEST_CASE("instructors.md's new-problem example works as written beside the shipped problems", "[cli]") {
  const std::string doc = judge::read_file(fs::path(JUDGE_SOURCE_DIR) / "docs" / "instructors.md");
  std::smatch m;
  REQUIRE(std::regex_search(doc, m, std::regex("bin/judge new-problem ([A-Za-z0-9_]+)")));
  const std::string name = m[1];
  scratch_root root;
  // The shipped problems, as a checkout has them: the example must not take one of their names.
  for (const auto& entry : fs::directory_iterator(fs::path(JUDGE_SOURCE_DIR) / "problems"))
    fs::create_directories(root.dir / "problems" / entry.path().filename());
  const auto made = judge_cli(root.root_arg() + " new-problem " + name);
  CAPTURE(name, made.output);
  REQUIRE(made.status == 0);
  // Every file the doc lists is made.
  const std::regex listed("\n((problems|testcases)/" + name + "/\\S+)");
  int files = 0;
  for (auto it = std::sregex_iterator(doc.begin(), doc.end(), listed); it != std::sregex_iterator(); ++it, ++files) {
    CAPTURE((*it)[1].str());
    CHECK(fs::exists(root.dir / (*it)[1].str()));
  }
  CHECK(files >= 9);
}

TEST_CASE("judge new-problem scaffolds a package the judge can load", "[cli]") {
  scratch_root root;
  const auto made = judge_cli(root.root_arg() + " new-problem scaled_copy");
  REQUIRE(made.status == 0);
  CHECK(fs::exists(root.dir / "problems/scaled_copy/problem.yaml"));
  CHECK(fs::exists(root.dir / "problems/scaled_copy/submissions/accepted"));
  const auto cases = judge_cli(root.root_arg() + " cases scaled_copy");
  CHECK(cases.status == 0);
  CHECK(contains(cases.output, "sample_5"));
  CHECK(judge_cli(root.root_arg() + " new-problem 'Bad Name'").status == 2);
}

TEST_CASE("without a GPU the judge compiles, reports compile errors and says no device is present", "[cli][nvcc]") {
  if (judge_cli("device").status == 0) {
    WARN("a CUDA device is present: this test is about machines without one");
    return;
  }
  scratch_root root;
  root.write("solutions/matmul/broken.cu",
             "extern \"C\" void solve(const float* A, const float* B, float* C, int M, int N, int K) { oops }\n");
  const auto r = judge_cli(root.root_arg() + " matmul --no-db");
  CAPTURE(r.output);
  CHECK(r.status == 1); // a compile error, as on a GPU and through `judge submit`
  CHECK(contains(r.output, "CE"));
  CHECK(contains(r.output, "oops"));
  CHECK(contains(r.output, "no CUDA device"));
  if (!fs::exists("/proc/driver/nvidia/version")) {
    // No driver at all: "no NVIDIA GPU was found", never the runtime's "driver version is insufficient".
    CHECK(contains(r.output, "no NVIDIA GPU was found"));
    CHECK_FALSE(contains(r.output, "insufficient"));
    const auto device = judge_cli("device");
    CHECK(contains(device.output, "no CUDA device: no NVIDIA GPU was found"));
    CHECK_FALSE(contains(device.output, "insufficient"));
  }
}

TEST_CASE("Ctrl-C stops a run cleanly: exit status 130, no compiler left running", "[cli][nvcc]") {
  scratch_root root;
  // Many solutions, so that most are still queued when the interrupt comes.
  constexpr int solutions = 16;
  for (int i = 0; i < solutions; ++i)
    root.write("solutions/matmul/s" + std::to_string(i) + ".cu",
               "extern \"C\" void solve(const float* A, const float* B, float* C, int M, int N, int K) {}\n");
  const fs::path cache = root.dir / "runner-cache";
  const fs::path output = root.dir / "output.txt";
  const fs::path json = root.dir / "run.json";
  const fs::path junit = root.dir / "run.xml";
  const std::string command = "exec env JUDGE_CACHE_DIR=" + cache.string() + " " + JUDGE_CLI + " " + root.root_arg() +
                              " matmul --jobs 2 --json " + json.string() + " --junit " + junit.string() + " >" +
                              output.string() + " 2>&1";
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  // Interrupt while solutions compile: once an nvcc with a solution's declaration header runs (the
  // bracket keeps the pattern from matching the shell that runs pgrep).
  const std::string compiling =
      "pgrep -f '" + (root.dir / "[r]unner-cache").string() + "/matmul/.*/include/solve.h' >/dev/null";
  for (int waited = 0; waited < 1200 && std::system(compiling.c_str()) != 0; ++waited) ::usleep(50 * 1000);
  ::kill(pid, SIGINT);
  const auto interrupted_at = std::chrono::steady_clock::now();
  int raw = 0;
  REQUIRE(::waitpid(pid, &raw, 0) == pid);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - interrupted_at).count();
  REQUIRE(WIFEXITED(raw));
  CHECK(WEXITSTATUS(raw) == 130);
  // No new compile starts: the judge is gone in far less time than one compile takes.
  CHECK(seconds < 3.0);
  // Every compiler the judge started had the cache folder on its command line. The bracket keeps the
  // pattern from matching the shell that runs pgrep, whose own command line holds it.
  const std::string leftovers = "pgrep -f '" + (root.dir / "[r]unner-cache").string() + "' >/dev/null";
  CHECK(std::system(leftovers.c_str()) != 0);
  // Nothing is blamed on the learners: no CE, no signal 9; what was not graded is said.
  std::error_code ignored;
  const std::string text = judge::read_file(output, ignored).value_or("");
  CAPTURE(text);
  CHECK_FALSE(contains(text, "CE"));
  CHECK_FALSE(contains(text, "signal 9"));
  CHECK(contains(text, "not graded"));
  CHECK(contains(text, "s15.cu"));
  for (const fs::path& report : {json, junit}) {
    const std::string written = judge::read_file(report, ignored).value_or("");
    CAPTURE(report, written);
    CHECK_FALSE(contains(written, "compile_error"));
    CHECK_FALSE(contains(written, "signal 9"));
  }
  // Nothing was recorded for the solutions cut short.
  const fs::path store = root.dir / "results" / "judge.db";
  if (fs::exists(store)) CHECK(judge::results_db(store).results_for("matmul").empty());
}
