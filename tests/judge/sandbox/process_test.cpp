#include "catch.hpp"
#include "temp_folder.hpp"

#include "judge/sandbox/process.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

#include <fcntl.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using judge::child_process;
using judge::process_options;

namespace {

auto in(std::chrono::milliseconds ms) { return std::chrono::steady_clock::now() + ms; }

process_options shell(const std::string& script) {
  process_options options;
  options.argv = {"/bin/sh", "-c", script};
  options.env = judge::child_environment();
  return options;
}

bool group_is_gone(int pgid) { return ::kill(-pgid, 0) == -1 && errno == ESRCH; }

} // namespace

TEST_CASE("a child's exit code is reported and described", "[process]") {
  child_process child(shell("exit 3"));
  auto status = child.wait(in(10s));
  CHECK(status.exited);
  CHECK(status.exit_code == 3);
  CHECK_FALSE(status.killed_by_judge);
  CHECK(judge::describe(status) == "exited with code 3");
}

TEST_CASE("a child killed by a signal is described by the signal's name", "[process]") {
  child_process child(shell("kill -SEGV $$"));
  auto status = child.wait(in(10s));
  CHECK(status.signaled);
  CHECK(status.signal == SIGSEGV);
  CHECK(judge::describe(status) == "killed by signal 11 (SIGSEGV)");
}

TEST_CASE("the time limit kills the whole process group including grandchildren", "[process]") {
  child_process child(shell("sleep 100 & sleep 100"));
  int pgid = child.pid();
  auto started = std::chrono::steady_clock::now();
  auto status = child.wait(in(300ms));
  CHECK(std::chrono::steady_clock::now() - started < 5s);
  CHECK(child.timed_out());
  CHECK(status.killed_by_judge);
  CHECK(judge::describe(status) == "stopped by the judge after the time limit");
  CHECK(group_is_gone(pgid));
}

TEST_CASE("the destructor kills and reaps a running group", "[process]") {
  int pgid = 0;
  {
    child_process child(shell("sleep 100 & sleep 100"));
    pgid = child.pid();
    REQUIRE(::kill(-pgid, 0) == 0);
  }
  CHECK(group_is_gone(pgid));
}

TEST_CASE("kill_all_children kills every live child group", "[process]") {
  child_process first(shell("sleep 100"));
  child_process second(shell("sleep 100 & sleep 100"));
  judge::kill_all_children();
  CHECK(first.wait(in(10s)).signal == SIGKILL);
  CHECK(second.wait(in(10s)).signal == SIGKILL);
  CHECK(group_is_gone(second.pid()));
}

TEST_CASE("a flood of output is capped without blocking the child", "[process]") {
  auto options = shell("head -c 10000000 /dev/zero; head -c 3000000 /dev/zero >&2; echo done >&3");
  options.output_cap = 1000;
  options.result_channel = true;
  child_process child(options);
  // The flood comes before the result line: the judge must drain it while it waits.
  CHECK(child.read_result_line(in(20s)) == std::optional<std::string>("done"));
  auto status = child.wait(in(20s));
  CHECK(status.exited);
  CHECK(status.exit_code == 0);
  CHECK(child.out().kept == std::string(1000, '\0'));
  CHECK(child.out().dropped_bytes == 10000000 - 1000);
  CHECK(child.err().kept.size() == 1000);
  CHECK(child.err().dropped_bytes == 3000000 - 1000);
}

TEST_CASE("run_to_completion captures both streams and the exit status", "[process]") {
  auto result = judge::run_to_completion(shell("echo out; echo err >&2; exit 2"), 10s);
  CHECK(result.status.exit_code == 2);
  CHECK(result.out.kept == "out\n");
  CHECK(result.err.kept == "err\n");
  CHECK(result.seconds < 10);
}

TEST_CASE("result channel lines arrive one at a time and end when the child exits", "[process]") {
  auto options = shell("echo hello >&3; echo world >&3; echo not-a-result");
  options.result_channel = true;
  child_process child(options);
  CHECK(child.read_result_line(in(10s)) == std::optional<std::string>("hello"));
  CHECK(child.read_result_line(in(10s)) == std::optional<std::string>("world"));
  CHECK_FALSE(child.read_result_line(in(10s)).has_value());
  CHECK_FALSE(child.timed_out());
  child.wait(in(10s));
  CHECK(child.out().kept == "not-a-result\n");
}

TEST_CASE("waiting for a result line stops at the deadline", "[process]") {
  auto options = shell("sleep 100");
  options.result_channel = true;
  child_process child(options);
  CHECK_FALSE(child.read_result_line(in(200ms)).has_value());
  CHECK(child.timed_out());
}

TEST_CASE("without a result channel fd 3 is closed in the child", "[process]") {
  auto result = judge::run_to_completion(shell("echo x >&3 || echo closed"), 10s);
  CHECK(result.out.kept == "closed\n");
}

TEST_CASE("lines sent to stdin reach the child in order", "[process]") {
  auto options = shell("read a; read b; echo \"$b $a\" >&3");
  options.result_channel = true;
  child_process child(options);
  CHECK(child.send_line("one"));
  CHECK(child.send_line("two"));
  CHECK(child.read_result_line(in(10s)) == std::optional<std::string>("two one"));
}

TEST_CASE("sending to a child that closed its stdin fails without a SIGPIPE", "[process]") {
  auto options = shell("exec <&-; echo ready >&3; sleep 100");
  options.result_channel = true;
  child_process child(options);
  REQUIRE(child.read_result_line(in(10s)) == std::optional<std::string>("ready"));
  CHECK_FALSE(child.send_line(std::string(200000, 'x')));
}

TEST_CASE("the child's environment is exactly the one given", "[process]") {
  process_options options;
  options.argv = {"/usr/bin/env"};
  options.env = {{"ONLY", "1"}};
  auto result = judge::run_to_completion(options, 10s);
  CHECK(result.out.kept == "ONLY=1\n");
}

TEST_CASE("child_environment never passes JUDGE variables", "[process]") {
  ::setenv("JUDGE_SECRET_FILE", "/tmp/the-secret", 1);
  ::setenv("JUDGE_ANYTHING", "x", 1);
  ::setenv("CUDA_PROCESS_TEST", "kept", 1);
  ::setenv("UNRELATED_PROCESS_TEST", "dropped", 1);
  auto env = judge::child_environment();
  ::unsetenv("JUDGE_SECRET_FILE");
  ::unsetenv("JUDGE_ANYTHING");
  ::unsetenv("CUDA_PROCESS_TEST");
  ::unsetenv("UNRELATED_PROCESS_TEST");
  for (const auto& entry : env) {
    CAPTURE(entry.first);
    CHECK(entry.first.rfind("JUDGE_", 0) != 0);
  }
  CHECK(env.count("CUDA_PROCESS_TEST") == 1);
  CHECK(env.count("UNRELATED_PROCESS_TEST") == 0);
  CHECK(env.count("PATH") == 1);

  auto options = shell("env");
  options.env = env;
  auto result = judge::run_to_completion(options, 10s);
  CHECK(result.out.kept.find("the-secret") == std::string::npos);
  CHECK(result.out.kept.find("CUDA_PROCESS_TEST=kept") != std::string::npos);
}

TEST_CASE("a program that cannot be started is a clear system_error", "[process]") {
  auto program = GENERATE(as<std::string>{}, "/nonexistent/x/y", "no-such-program-for-the-judge");
  process_options options;
  options.argv = {program};
  options.env = judge::child_environment();
  try {
    child_process child(options);
    FAIL("the child started");
  } catch (const std::system_error& e) {
    std::string what = e.what();
    CAPTURE(what);
    CHECK(what.find("cannot start " + program) != std::string::npos);
    CHECK(what.find("No such file or directory") != std::string::npos);
    CHECK(e.code().value() == ENOENT);
  }
}

TEST_CASE("the child runs in the working directory given", "[process]") {
  judge_test::temp_folder dir;
  auto options = shell("pwd");
  options.working_dir = dir.path();
  auto result = judge::run_to_completion(options, 10s);
  CHECK(result.out.kept == dir.path().string() + "\n");
}

TEST_CASE("descriptors the judge opened without close-on-exec do not leak into the child", "[process]") {
  int leaked = ::open("/dev/null", O_RDONLY); // deliberately without O_CLOEXEC
  REQUIRE(leaked >= 0);
  auto options = shell("ls /proc/self/fd");
  options.result_channel = true;
  auto result = judge::run_to_completion(options, 10s);
  ::close(leaked);
  // ls itself holds one more descriptor (the directory it lists).
  std::string expected_prefix = "0\n1\n2\n3\n";
  CHECK(result.out.kept.rfind(expected_prefix, 0) == 0);
  CHECK(std::count(result.out.kept.begin(), result.out.kept.end(), '\n') == 5);
}

TEST_CASE("the sandbox hides paths and leaves only the loopback network", "[process]") {
  judge_test::temp_folder dir;
  // Read-only and the working directory: open to the unprivileged user a root judge's children run as.
  fs::permissions(dir.path(), fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                  fs::perms::others_read | fs::perms::others_exec);
  fs::create_directory(dir.path() / "hidden");
  std::ofstream(dir.path() / "hidden" / "secret.txt") << "do not read";
  std::ofstream(dir.path() / "secret_file") << "do not read either";
  fs::create_directory(dir.path() / "visible");
  std::ofstream(dir.path() / "visible" / "file.txt") << "fine";

  auto options = shell("ls -A hidden; cat secret_file; echo; ls -A visible; "
                       "grep : /proc/net/dev | cut -d: -f1 | tr -d ' '");
  options.working_dir = dir.path();
  options.sandbox = true;
  options.read_only_paths = {dir.path()};
  options.hidden_paths = {dir.path() / "hidden", dir.path() / "secret_file", dir.path() / "does-not-exist"};
  child_process child(options);
  if (!child.sandboxed()) {
    WARN("no sandbox on this machine (" << child.sandbox_note() << "); hidden paths not checked");
    return;
  }
  auto status = child.wait(in(10s));
  CAPTURE(child.err().kept);
  CHECK(status.exit_code == 0);
  CHECK(child.out().kept == "\nfile.txt\nlo\n");

  SECTION("not even root of a nested user namespace can unmount the covers") {
    auto nested = shell("unshare --user --map-root-user --mount sh -c "
                        "'umount hidden; umount secret_file; ls -A hidden; cat secret_file'");
    nested.working_dir = dir.path();
    nested.sandbox = true;
    nested.read_only_paths = options.read_only_paths;
    nested.hidden_paths = options.hidden_paths;
    auto result = judge::run_to_completion(nested, 10s);
    CAPTURE(result.err.kept);
    CHECK(result.out.kept.empty());
  }
}

TEST_CASE("describe names a signal the system has no name for by its number", "[process]") {
  child_process::exit_status status;
  status.signaled = true;
  status.signal = 77;
  CHECK(judge::describe(status) == "killed by signal 77");
}
