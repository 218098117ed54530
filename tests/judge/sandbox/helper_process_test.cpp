#include "catch.hpp"

#include "judge/sandbox/helper_process.hpp"
#include "judge/sandbox/process.hpp"

#include <sys/wait.h>

#include <chrono>
#include <csignal>
#include <memory>
#include <optional>
#include <thread>

using judge::helper_process;
using namespace std::chrono_literals;

namespace {
/// Polls `helper` until it ends or `limit` passes.
std::optional<int> ended_within(helper_process& helper, std::chrono::milliseconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < until) {
    if (auto status = helper.poll()) return status;
    std::this_thread::sleep_for(20ms);
  }
  return std::nullopt;
}
} // namespace

TEST_CASE("a helper runs until asked to stop, then ends by SIGTERM", "[helper_process]") {
  helper_process helper({"/bin/sh", "-c", "exec sleep 60"}, judge::child_environment());
  CHECK(helper.pid() > 0);
  CHECK_FALSE(ended_within(helper, 300ms));
  helper.terminate();
  const auto status = ended_within(helper, 5000ms);
  REQUIRE(status);
  CHECK(WIFSIGNALED(*status));
  CHECK(WTERMSIG(*status) == SIGTERM);
}

TEST_CASE("a helper's exit status is reported", "[helper_process]") {
  helper_process helper({"/bin/sh", "-c", "exit 4"}, judge::child_environment());
  const auto status = ended_within(helper, 5000ms);
  REQUIRE(status);
  CHECK(WIFEXITED(*status));
  CHECK(WEXITSTATUS(*status) == 4);
}

TEST_CASE("a helper ends when the thread that started it ends", "[helper_process]") {
  // Left alive on purpose when its thread ends, as when the judge is killed and no destructor runs.
  std::unique_ptr<helper_process> helper;
  std::thread([&] {
    helper = std::make_unique<helper_process>(std::vector<std::string>{"/bin/sh", "-c", "exec sleep 60"},
                                              judge::child_environment());
    // A watching thread outlives the start by far; this one lives long enough for the helper to be
    // running its program.
    std::this_thread::sleep_for(300ms);
  }).join();
  const auto status = ended_within(*helper, 5000ms);
  REQUIRE(status);
  CHECK(WIFSIGNALED(*status));
  CHECK(WTERMSIG(*status) == SIGTERM);
}
