// Builds in the background: every solution (and the baseline) is handed to a pool of compile threads at
// once, and whoever needs one build waits for that build only. A grading run starts timing the first
// solution on the GPU while the CPU cores are still compiling the rest.
#pragma once

#include "judge/compile/compile.hpp"

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace judge {

struct build_job {
  std::filesystem::path source;
  runner_kind kind = runner_kind::solution;
};

/// Told (done, total) while a caller waits: once when it starts waiting and after each build that ends.
using build_waiting_fn = std::function<void(std::size_t done, std::size_t total)>;

/// Starts up to `threads` compile threads over `jobs`, taken in their order. Once `tools.stop` is set no
/// further build starts: the jobs not begun get internal_error "not compiled: stopped". The destructor
/// waits for the builds already begun (each ends early once `tools.stop` is set).
class build_queue {
public:
  /// `on_built` (may be empty) is called after each build with (builds ended, jobs), one call at a time,
  /// from the building threads.
  build_queue(problem_spec spec, std::vector<build_job> jobs, toolchain tools, unsigned threads,
              build_waiting_fn on_built = {});
  ~build_queue();
  build_queue(const build_queue&) = delete;
  build_queue& operator=(const build_queue&) = delete;

  std::size_t size() const { return m_jobs.size(); }
  /// Job `i`'s build, waiting for it if it is still going; rethrows what build_runner threw for it
  /// (a source that does not exist).
  const build_result& result(std::size_t i, const build_waiting_fn& waiting = {});
  /// Every build, waiting for all of them, in the order of the jobs; rethrows the first exception.
  std::vector<build_result> all(const build_waiting_fn& waiting = {});
  /// Job `i`'s build if it has ended without an exception, else nullptr; never waits.
  const build_result* if_built(std::size_t i) const;
  /// How many builds have ended so far.
  std::size_t done() const;

private:
  void work();

  const problem_spec m_spec;
  const std::vector<build_job> m_jobs;
  const toolchain m_tools;
  const build_waiting_fn m_on_built;
  std::vector<std::optional<build_result>> m_results;
  std::vector<std::exception_ptr> m_errors;
  std::size_t m_next = 0, m_done = 0;
  mutable std::mutex m_mutex;
  std::mutex m_reporting; // on_built calls, one at a time, never under m_mutex
  std::condition_variable m_ended;
  std::vector<std::thread> m_threads;
};

/// build_runner for every source, up to `jobs` at once; results in the order of `sources`. `progress`
/// (may be empty) is called after each build, one call at a time, from the building threads. Rethrows
/// the first build_runner exception after every build has finished. Once `tools.stop` is set, no
/// further build starts: the sources not begun get internal_error "not compiled: stopped".
std::vector<build_result> build_runners(const problem_spec& spec, const std::vector<std::filesystem::path>& sources,
                                        runner_kind kind, const toolchain& tools, unsigned jobs,
                                        const build_waiting_fn& progress);

} // namespace judge
