// `judge submit` end to end: the real `judge` command against a real `judge serve` on 127.0.0.1. Here
// (no GPU) a solution that compiles ends "compiled, not run", exit 3, as `judge run` would.
#include "catch.hpp"
#include "judge_command.hpp"
#include "results_fixtures.hpp"
#include "text_match.hpp"

#include <fmt/format.h>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <thread>

using judge::testing::scratch_dir;
using judge_test::contains;
using judge_test::run_judge;

namespace {
/// `judge serve --demo` on a free port of 127.0.0.1 with a store of its own; stopped with SIGTERM.
class demo_server {
public:
  scratch_dir dir;
  std::string url;
  std::map<std::string, std::string> tokens;

  demo_server() {
    const std::string log = (dir / "serve.log").string();
    std::fflush(nullptr); // else the child would write what this process has buffered a second time
    m_pid = ::fork();
    if (m_pid == 0) {
      const std::string db = (dir / "demo.db").string();
      std::freopen(log.c_str(), "w", stdout);
      std::freopen(log.c_str(), "a", stderr);
      ::execl(JUDGE_CLI, JUDGE_CLI, "serve", "--demo", "--listen", "127.0.0.1:0", "--db", db.c_str(), nullptr);
      ::_exit(127);
    }
    static const std::regex token_line(R"(^\s+(\w+)\s+(student|instructor)\s+(jt_\S+)$)");
    static const std::regex listening(R"(listening on (http://[0-9.:]+)/)");
    for (int i = 0; i < 600 && url.empty(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      std::ifstream in(log);
      for (std::string line; std::getline(in, line);) {
        std::smatch m;
        if (std::regex_match(line, m, token_line)) tokens[m[1]] = m[3];
        if (std::regex_search(line, m, listening)) url = m[1];
      }
    }
  }
  ~demo_server() {
    ::kill(m_pid, SIGTERM);
    int status = 0;
    ::waitpid(m_pid, &status, 0);
  }
  demo_server(const demo_server&) = delete;
  demo_server& operator=(const demo_server&) = delete;

  /// The environment of a learner: their token and a config folder of their own.
  std::string as(const std::string& name) const {
    return fmt::format("JUDGE_TOKEN={} XDG_CONFIG_HOME={} ", tokens.at(name), (dir / "config").string());
  }

private:
  pid_t m_pid = -1;
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
  demo_server server;
  REQUIRE_FALSE(server.url.empty());
  write(server.dir / "alice.cu", starter());
  const auto r = run_judge(fmt::format("submit matmul {} --server {}", (server.dir / "alice.cu").string(), server.url),
                           server.as("alice"));
  CAPTURE(r.output);
  CHECK(r.status == 3); // no CUDA device, as `judge run` here
  CHECK(contains(r.output, "submission 1: done"));
  CHECK(contains(r.output, "NR\n  | compiled, not run: no CUDA device"));
  CHECK(contains(r.output, "1 solution(s): 1 compiled, not run (no CUDA device)"));
  CHECK(contains(r.output, server.url + "/submissions/1"));
}

TEST_CASE("a compile error through the server shows the compiler's message and exits 1", "[submit][serve]") {
  demo_server server;
  REQUIRE_FALSE(server.url.empty());
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
  demo_server server;
  REQUIRE_FALSE(server.url.empty());
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
  demo_server server;
  REQUIRE_FALSE(server.url.empty());
  write(server.dir / "a.cu", starter());
  const std::string file = (server.dir / "a.cu").string();
  SECTION("an unknown problem") {
    const auto r = run_judge(fmt::format("submit nope {} --server {}", file, server.url), server.as("alice"));
    CHECK(r.status == 2);
    CHECK(contains(r.output, "the server refused the submission: unknown problem"));
  }
  SECTION("an unknown token") {
    const auto r = run_judge(fmt::format("submit matmul {} --server {}", file, server.url), "JUDGE_TOKEN=jt_nobody ");
    CHECK(r.status == 2);
    CHECK(contains(r.output, "check the token"));
  }
}

TEST_CASE("submit refuses before sending anything when a file or the token file is wrong", "[submit]") {
  scratch_dir dir;
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
  }
}
