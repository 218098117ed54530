#include "catch.hpp"
#include "text_match.hpp"

#include "fake_runner/fake_runner.hpp"
#include "judge/sanitizer/sanitize.hpp"

#include <cstdlib>
#include <fstream>

using namespace judge;
using judge_test::contains;

TEST_CASE("a sanitizer's time is bounded by the case's limit, scaled, and capped", "[sanitizer]") {
  CHECK(sanitizer_seconds(10) == 130);
  CHECK(sanitizer_seconds(1) == 40);
  CHECK(sanitizer_seconds(100) == 300);
}

TEST_CASE("the sanitizer's command names the tool and leaves host backtraces out", "[sanitizer]") {
  CHECK(sanitizer_command("/cuda/bin/compute-sanitizer", sanitizer_tool::racecheck, 8) ==
        std::vector<std::string>{"/cuda/bin/compute-sanitizer", "--tool", "racecheck", "--show-backtrace", "device",
                                 "--print-limit", "8"});
}

TEST_CASE("a run that timed out keeps what it printed and says so", "[sanitizer]") {
  tool_run run;
  run.started = true;
  run.answers = {"{\"type\":\"hello\"}"};
  run.timed_out = true;
  run.seconds = 130.2;
  run.out.kept = "========= Invalid __global__ read of size 4 bytes\n=========     at k()+0x10 in /x/src/a.cu:3\n"
                 "=========     by thread (0,0,0) in block (0,0,0)\n";
  const sanitizer_run r = read_sanitizer_run(sanitizer_tool::memcheck, run, 130);
  CHECK(r.state == sanitizer_state::timed_out);
  CHECK(r.detail == "stopped after 130 s");
  REQUIRE(r.findings.size() == 1);
  CHECK(r.findings[0].at == source_line{"/x/src/a.cu", 3});
}

TEST_CASE("a run that never reached its summary could not check the case, in the tool's words", "[sanitizer]") {
  tool_run run;
  run.started = true;
  run.exit.exited = true;
  run.exit.exit_code = 1;
  run.answers = {"{\"type\":\"hello\"}"};
  run.err.kept = "========= Error: Target application terminated before first instrumented API call\n";
  const sanitizer_run r = read_sanitizer_run(sanitizer_tool::initcheck, run, 40);
  CHECK(r.state == sanitizer_state::failed);
  CHECK(contains(r.detail, "terminated before first instrumented API call"));
  tool_run not_started;
  not_started.start_failure = "cannot start /x: No such file or directory";
  CHECK(read_sanitizer_run(sanitizer_tool::memcheck, not_started, 40).state == sanitizer_state::failed);
}

TEST_CASE("compute-sanitizer is found where JUDGE_COMPUTE_SANITIZER names it, and said missing otherwise",
          "[sanitizer]") {
  const judge_test::temp_folder folder("find-sanitizer");
  const auto tool = folder.path() / "my-sanitizer";
  std::ofstream(tool) << "#!/bin/sh\n";
  std::filesystem::permissions(tool, std::filesystem::perms::owner_all);
  ::setenv("JUDGE_COMPUTE_SANITIZER", tool.c_str(), 1);
  CHECK(find_compute_sanitizer("/nowhere/bin/nvcc").executable == tool);
  ::setenv("JUDGE_COMPUTE_SANITIZER", (folder.path() / "absent").c_str(), 1);
  const char* path = std::getenv("PATH");
  const std::string saved = path ? path : "";
  ::setenv("PATH", folder.path().c_str(), 1);
  const sanitizer_options missing = find_compute_sanitizer("/nowhere/bin/nvcc");
  ::setenv("PATH", saved.c_str(), 1);
  ::unsetenv("JUDGE_COMPUTE_SANITIZER");
  CHECK(missing.executable.empty());
  CHECK(contains(missing.missing, "absent"));
  CHECK(contains(missing.missing, "JUDGE_COMPUTE_SANITIZER"));
}

TEST_CASE("a clean summary from a run whose runner never answered is no clean bill", "[sanitizer]") {
  tool_run run;
  run.started = true;
  run.exit.exited = true;
  run.exit.exit_code = 2;
  run.out.kept = "========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n";
  run.err.kept = "runner: fd 3 (the result channel) is not open.\n";
  const sanitizer_run r = read_sanitizer_run(sanitizer_tool::memcheck, run, 130);
  CHECK(r.state == sanitizer_state::failed);
  CHECK(contains(r.detail, "without answering"));
  CHECK(contains(r.detail, "fd 3"));
  run.answers = {"{\"type\":\"hello\"}", "{\"type\":\"done\"}"};
  const sanitizer_run clean = read_sanitizer_run(sanitizer_tool::memcheck, run, 130);
  CHECK(clean.state == sanitizer_state::ran);
  CHECK(clean.errors == 0);
  CHECK(clean.findings.empty());
}
