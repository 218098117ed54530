// The Slurm backend against stand-in Slurm commands (shell scripts first on PATH), without a cluster:
// a Slurm controller that stops answering costs the backend one bounded poll, never its thread.
#include "catch.hpp"
#include "temp_folder.hpp"
#include "text_match.hpp"

#include "judge/service/server.hpp"
#include "judge/service/slurm/slurm_backend.hpp"
#include "judge/service/slurm/slurm_jobs.hpp"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace judge::service;
using judge_test::contains;
using judge_test::temp_folder;
using namespace std::chrono_literals;

namespace {

/// The backend's log lines, as they come from its thread.
struct log_lines {
  std::mutex mutex;
  std::vector<std::string> lines;
  void add(const std::string& line) {
    std::lock_guard<std::mutex> lock(mutex);
    lines.push_back(line);
  }
  std::size_t count(const std::string& part) {
    std::lock_guard<std::mutex> lock(mutex);
    std::size_t n = 0;
    for (const std::string& l : lines) n += contains(l, part) ? 1 : 0;
    return n;
  }
  std::vector<std::string> all() {
    std::lock_guard<std::mutex> lock(mutex);
    return lines;
  }
};

void write_tool(const temp_folder& dir, const std::string& name, const std::string& body) {
  const auto file = dir.write("bin/" + name, "#!/bin/sh\n" + body + "\n");
  std::filesystem::permissions(file, std::filesystem::perms::owner_all);
}

} // namespace

TEST_CASE("a squeue that hangs is killed at its limit and asked again, and the backend still stops at once",
          "[service][slurm]") {
  const temp_folder dir("slurm-backend");
  write_tool(dir, "sbatch", "echo 4242");
  write_tool(dir, "squeue", "exec sleep 20"); // a controller that does not answer
  write_tool(dir, "scancel", "exit 0");
  const std::string old_path = std::getenv("PATH") ? std::getenv("PATH") : "";
  ::setenv("PATH", ((dir / "bin").string() + ":" + old_path).c_str(), 1);

  server_options o;
  o.root = JUDGE_SOURCE_DIR;
  o.db = dir / "judge.db";
  o.backend = "slurm";
  service_state state(o);
  state.with_store([&](store_connection& c) {
    const auto id = c.queue.enqueue("alice", "vector_add", {{"a.cu", "// alice"}});
    c.queue.claim_for_compile("compile 1");
    c.queue.compiled(id);
  });
  slurm_options s;
  s.partition = "gpu";
  s.poll_seconds = 0.2;
  s.gather_seconds = 0;
  s.command_seconds = 1;
  log_lines log;
  const auto start = std::chrono::steady_clock::now();
  std::thread backend =
      start_slurm_backend(state, s, "http://127.0.0.1:1", "/bin/false", [&](const std::string& l) { log.add(l); });

  // The job goes out (sbatch answers), then every poll's squeue hangs and is killed after 1 s.
  while (log.count("asking again later") < 2 && std::chrono::steady_clock::now() - start < 15s)
    std::this_thread::sleep_for(50ms);
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  state.stopping() = true;
  const auto stop = std::chrono::steady_clock::now();
  backend.join();
  const double stopping = std::chrono::duration<double>(std::chrono::steady_clock::now() - stop).count();
  ::setenv("PATH", old_path.c_str(), 1);

  CAPTURE(log.all());
  CHECK(log.count("job 4242") >= 1);
  CHECK(log.count("squeue failed (did not finish within 1 s)") >= 2);
  // Two polls of 1 s each, well before the stand-in's 20 s would have let a blocked backend go on.
  CHECK(waited < 10);
  CHECK(stopping < 5);
}
