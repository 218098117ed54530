#include "catch.hpp"
#include "temp_folder.hpp"
#include "text_match.hpp"

#include "judge/sandbox/tool_command.hpp"

#include <chrono>
#include <filesystem>
#include <thread>

using judge::run_trusted_tool;
using judge_test::contains;
using namespace std::chrono_literals;

TEST_CASE("a tool's output and exit status are reported", "[tool_command]") {
  const auto r = run_trusted_tool({"sh", "-c", "echo out; echo err >&2; exit 3"}, 10s);
  REQUIRE(r.started());
  CHECK_FALSE(r.succeeded());
  CHECK(r.run.out.kept == "out\n");
  CHECK(r.run.err.kept == "err\n");
  CHECK(r.failure_text(10s) == "exited with code 3: err");
  CHECK(run_trusted_tool({"true"}, 10s).succeeded());
}

TEST_CASE("a tool that hangs is killed at its deadline, with what it started", "[tool_command]") {
  const judge_test::temp_folder dir("tool");
  const auto start = std::chrono::steady_clock::now();
  // The grandchild would write its mark after the deadline if it outlived the kill.
  const auto r = run_trusted_tool({"sh", "-c", "(sleep 3; touch '" + (dir / "mark").string() + "') & sleep 60"}, 500ms);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(r.timed_out());
  CHECK_FALSE(r.succeeded());
  CHECK(seconds < 5);
  CHECK(contains(r.failure_text(500ms), "did not finish within"));
  std::this_thread::sleep_for(3500ms);
  CHECK_FALSE(std::filesystem::exists(dir / "mark"));
}

TEST_CASE("a tool that is not installed is a start failure, not an exception", "[tool_command]") {
  const auto r = run_trusted_tool({"no-such-tool-of-the-judge"}, 10s);
  CHECK_FALSE(r.started());
  CHECK(contains(r.start_failure, "no-such-tool-of-the-judge"));
  CHECK(r.failure_text(10s) == r.start_failure);
}

TEST_CASE("a tool's output beyond the cap is counted, not kept", "[tool_command]") {
  const auto r = run_trusted_tool({"sh", "-c", "head -c 5000 /dev/zero"}, 10s, judge::judge_environment(), 1000);
  CHECK(r.succeeded());
  CHECK(r.run.out.kept.size() == 1000);
  CHECK(r.run.out.dropped_bytes == 4000);
}

TEST_CASE("a tool gets the judge's whole environment", "[tool_command]") {
  ::setenv("JUDGE_TOOL_TEST_VARIABLE", "seen", 1);
  const auto r = run_trusted_tool({"sh", "-c", "echo $JUDGE_TOOL_TEST_VARIABLE"}, 10s);
  ::unsetenv("JUDGE_TOOL_TEST_VARIABLE");
  CHECK(r.run.out.kept == "seen\n");
}
