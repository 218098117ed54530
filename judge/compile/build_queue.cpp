#include "judge/compile/build_queue.hpp"

#include <algorithm>

namespace judge {

build_queue::build_queue(problem_spec spec, std::vector<build_job> jobs, toolchain tools, unsigned threads,
                         build_waiting_fn on_built)
    : m_spec(std::move(spec)), m_jobs(std::move(jobs)), m_tools(std::move(tools)), m_on_built(std::move(on_built)),
      m_results(m_jobs.size()), m_errors(m_jobs.size()) {
  const std::size_t count = std::min<std::size_t>(std::max(threads, 1u), m_jobs.size());
  for (std::size_t t = 0; t < count; ++t) m_threads.emplace_back([this] { work(); });
}

build_queue::~build_queue() {
  for (auto& thread : m_threads) thread.join();
}

void build_queue::work() {
  for (;;) {
    std::size_t i;
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      if (m_next == m_jobs.size()) return;
      i = m_next++;
    }
    build_result result;
    std::exception_ptr error;
    if (m_tools.stop && *m_tools.stop) {
      result.message = "not compiled: stopped";
    } else {
      try {
        result = build_runner(m_spec, m_jobs[i].source, m_jobs[i].kind, m_tools);
      } catch (...) {
        error = std::current_exception();
      }
    }
    std::lock_guard<std::mutex> reporting(m_reporting);
    std::size_t done;
    {
      std::lock_guard<std::mutex> lock(m_mutex);
      m_results[i] = std::move(result);
      m_errors[i] = error;
      done = ++m_done;
    }
    m_ended.notify_all();
    if (m_on_built) m_on_built(done, m_jobs.size());
  }
}

std::size_t build_queue::done() const {
  std::lock_guard<std::mutex> lock(m_mutex);
  return m_done;
}

const build_result* build_queue::if_built(std::size_t i) const {
  std::lock_guard<std::mutex> lock(m_mutex);
  return m_results.at(i) && !m_errors[i] ? &*m_results[i] : nullptr;
}

const build_result& build_queue::result(std::size_t i, const build_waiting_fn& waiting) {
  std::unique_lock<std::mutex> lock(m_mutex);
  std::size_t told = static_cast<std::size_t>(-1);
  while (!m_results.at(i)) {
    if (waiting && told != m_done) {
      told = m_done;
      const std::size_t done = m_done;
      lock.unlock(); // the display may take its time; builds go on meanwhile
      waiting(done, m_jobs.size());
      lock.lock();
      continue;
    }
    m_ended.wait(lock);
  }
  if (m_errors[i]) std::rethrow_exception(m_errors[i]);
  return *m_results[i];
}

std::vector<build_result> build_queue::all(const build_waiting_fn& waiting) {
  std::vector<build_result> results;
  for (std::size_t i = 0; i < m_jobs.size(); ++i) results.push_back(result(i, waiting));
  return results;
}

std::vector<build_result> build_runners(const problem_spec& spec, const std::vector<std::filesystem::path>& sources,
                                        runner_kind kind, const toolchain& tools, unsigned jobs,
                                        const build_waiting_fn& progress) {
  std::vector<build_job> list;
  for (const auto& source : sources) list.push_back({source, kind});
  build_queue queue(spec, std::move(list), tools, jobs, progress);
  return queue.all();
}

} // namespace judge
