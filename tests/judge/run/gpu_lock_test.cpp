#include "catch.hpp"
#include "judge/run/gpu_lock.hpp"
#include "results_fixtures.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <optional>
#include <sstream>
#include <thread>

using namespace judge;
using judge_test::temp_folder;

namespace {
/// A child process that takes GPU `uuid`'s lock, says so through a pipe, holds it `hold_ms`, and exits.
pid_t hold_in_child(const std::filesystem::path& dir, const std::string& uuid, int hold_ms) {
  int ready[2];
  REQUIRE(::pipe(ready) == 0);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::close(ready[0]);
    {
      const gpu_lock lock(dir, uuid, "judge matmul class/", nullptr);
      const char ok = 'k';
      (void)!::write(ready[1], &ok, 1);
      ::usleep(static_cast<useconds_t>(hold_ms) * 1000);
    }
    ::_exit(0);
  }
  ::close(ready[1]);
  char ok = 0;
  REQUIRE(::read(ready[0], &ok, 1) == 1);
  ::close(ready[0]);
  return pid;
}
} // namespace

TEST_CASE("a second judge waits for the GPU's lock and is told who holds it", "[gpu_lock]") {
  temp_folder dir;
  const pid_t holder = hold_in_child(dir.path(), "GPU-0123abcd-aaaa", 600);
  std::optional<gpu_lock_holder> seen;
  const auto start = std::chrono::steady_clock::now();
  {
    const gpu_lock lock(dir.path(), "GPU-0123abcd-aaaa", "judge vector_add",
                        [&](const gpu_lock_holder& h) { seen = h; });
    CHECK(lock.held());
  }
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  int status = 0;
  REQUIRE(::waitpid(holder, &status, 0) == holder);
  REQUIRE(seen);
  CHECK(seen->pid == holder);
  CHECK(seen->command == "judge matmul class/");
  CHECK(seen->since.size() == 20); // 2026-11-30T15:00:00Z
  CHECK(waited > 0.3);             // it waited for the holder to let go
}

TEST_CASE("another GPU's lock does not wait, and neither does a free one", "[gpu_lock]") {
  temp_folder dir;
  const pid_t holder = hold_in_child(dir.path(), "GPU-1111", 400);
  bool waited = false;
  {
    const gpu_lock other(dir.path(), "GPU-2222", "judge matmul", [&](const gpu_lock_holder&) { waited = true; });
    CHECK(other.held());
  }
  CHECK_FALSE(waited);
  int status = 0;
  REQUIRE(::waitpid(holder, &status, 0) == holder);
  const gpu_lock again(dir.path(), "GPU-1111", "judge matmul", [&](const gpu_lock_holder&) { waited = true; });
  CHECK(again.held());
  CHECK_FALSE(waited); // the holder exited: the kernel released its lock
}

TEST_CASE("an interrupt ends the wait for a GPU without taking it", "[gpu_lock]") {
  temp_folder dir;
  const pid_t holder = hold_in_child(dir.path(), "GPU-3333", 3000);
  std::atomic<bool> stop{false};
  std::thread interrupt([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    stop = true;
  });
  const auto start = std::chrono::steady_clock::now();
  const gpu_lock lock(dir.path(), "GPU-3333", "judge matmul", nullptr, &stop);
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  interrupt.join();
  CHECK_FALSE(lock.held());
  CHECK(waited < 2.0);
  ::kill(holder, SIGKILL);
  int status = 0;
  ::waitpid(holder, &status, 0);
}

TEST_CASE("a lock file's holder text is read back, and nonsense reads as unknown", "[gpu_lock]") {
  const gpu_lock_holder h = parse_gpu_lock_holder("4242\njudge matmul a.cu\n2026-11-30T15:00:00Z\n");
  CHECK(h.pid == 4242);
  CHECK(h.command == "judge matmul a.cu");
  CHECK(h.since == "2026-11-30T15:00:00Z");
  CHECK(parse_gpu_lock_holder("").pid == 0);
  CHECK(parse_gpu_lock_holder("not a pid\n").pid == 0);
}
