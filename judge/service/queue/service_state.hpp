// What the routes and the workers of `judge serve` share (service/server.hpp): the options, the problems,
// a pool of store connections, who a request is, admission to the queue, and the wake-ups of the compile
// threads and workers.
#pragma once

#include "judge/service/http/http_message.hpp"
#include "judge/service/queue/accounts.hpp"
#include "judge/service/queue/server_options.hpp"
#include "judge/service/queue/submission_queue.hpp"
#include "judge/service/queue/submission_request.hpp"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace judge {
class results_db;
struct problem_spec;
} // namespace judge

namespace judge::course {
struct course_spec;
class course_watch;
} // namespace judge::course

namespace judge::service {

/// One problem as the API lists it.
struct problem_entry {
  std::string name, title, unit;
  std::size_t timed_cases = 0;
  bool draft = false;   ///< problem.yaml's `status: draft`: shown to instructors only
  std::string case_set; ///< the version of its cases now (problem/case_set_version.hpp)
};

/// One database connection and what works through it: a thread borrows one for a call (connections are
/// not shared between threads; SQLite's WAL lets them write concurrently).
struct store_connection {
  explicit store_connection(const std::filesystem::path& db);
  results_db store;
  accounts users;
  submission_queue queue;
};

/// What the routes and workers share: options, the problems, and a pool of store connections. One place.
class service_state {
public:
  explicit service_state(server_options options);
  ~service_state();

  const server_options& options() const { return m_options; }

  /// Runs `body` with a connection of this thread's own for its duration.
  template <typename F> auto with_store(F&& body) -> decltype(body(std::declval<store_connection&>())) {
    borrowed b(*this);
    return body(*b.c);
  }

  /// The account of the request's token: header "Authorization: Bearer <token>", else the cookie
  /// "judge_token". nullopt when absent or unknown.
  std::optional<account> authenticate(const http_request& request);

  /// What came of a submission: queued (its id, and how late it was), refused by a rate limit (the
  /// refusal: HTTP 429), or refused because the deadline passed and late submissions are not accepted
  /// (`closed` says so: HTTP 403).
  struct admission {
    std::int64_t id = 0;
    std::optional<refusal> refused;
    std::string closed;
    course_mark mark;
  };
  /// Checks `request` (check_submission: throws bad_request; a problem the course has not released is
  /// unknown to a student), holds it to the course's deadlines (students only), and, unless a rate limit
  /// refuses it (students only), queues it for `who` with its standing in the course and wakes the
  /// compile threads. Limits and queueing are one step per server, so two requests at once cannot both
  /// pass a limit. The API and the web form both come here.
  admission submit(const account& who, const submission_request& request);

  /// The course as it is now (its file read again when it changed), or null when the server has none.
  std::shared_ptr<const course::course_spec> course() const;
  /// Whether `who` may see `problem` now: it exists and, for a student, it is not a draft and the course
  /// has released it (access_policy.hpp).
  bool shows_problem(const account& who, const std::string& name) const;
  /// The problems `who` may see now.
  std::vector<problem_entry> problems_for(const account& who) const;
  /// Says a line in the server's log (the course file's reloads).
  void set_log(std::function<void(const std::string&)> log) { m_log = std::move(log); }
  /// Queues again, for the current cases, every submission to `problem` that a person made at or after
  /// `since` (ISO-8601 UTC; "" for all), oldest first, and wakes the compile threads: the old results
  /// stay. Instructors only (the caller checks). Returns the new submissions' ids.
  std::vector<std::int64_t> rejudge(const std::string& problem, const std::string& since);

  /// The problems under root/problems, by name: loaded at start, and again when a problem's folder, its
  /// problem.yaml or its cases.yaml changes (looked at once a second at most), so a problem added while the
  /// server runs is offered without a restart. A reload that fails (a problem.yaml half written) keeps
  /// what was loaded and is tried again. What these return stays valid for the server's life.
  const std::vector<problem_entry>& problems() const { return current().problems; }
  /// The spec of `name`, or nullptr for an unknown problem.
  const problem_spec* spec(const std::string& name) const;
  /// The spec of `name` when `who` may see it (shows_problem), else nullptr.
  const problem_spec* spec_for(const account& who, const std::string& name) const;
  /// The entry of `name`, or nullptr for an unknown problem.
  const problem_entry* entry(const std::string& name) const;
  std::filesystem::path problems_root() const { return m_options.root / "problems"; }
  std::filesystem::path testcases_root() const { return m_options.root / "testcases"; }

  /// Why no result ranks on this server ("" when it grades on GPUs): the board pages say it. Set once,
  /// before the server listens.
  const std::string& no_gpu_reason() const { return m_no_gpu_reason; }
  void set_no_gpu_reason(std::string why) { m_no_gpu_reason = std::move(why); }

  /// Set by SIGTERM/SIGINT (through g_interrupted) or stop(): workers finish what they hold and exit.
  std::atomic<bool>& stopping() { return m_stopping; }
  /// Wakes the compile threads (a submission was queued) and the GPU workers (one was compiled).
  void notify_queued();
  void notify_compiled();
  /// Waits until notified or `seconds` passed (workers poll too: another process may have queued).
  void wait_for_queued(double seconds);
  void wait_for_compiled(double seconds);

private:
  struct borrowed {
    explicit borrowed(service_state& s);
    ~borrowed();
    service_state& owner;
    std::unique_ptr<store_connection> c;
  };
  struct catalogue {
    std::vector<problem_entry> problems;
    std::vector<std::unique_ptr<problem_spec>> specs;
    std::string signature; ///< the folders' and files' names and times it was loaded from
  };
  const catalogue& current() const;
  std::unique_ptr<catalogue> load_catalogue(std::string signature) const; ///< throws what a problem's load throws
  server_options m_options;
  std::string m_no_gpu_reason;
  std::function<void(const std::string&)> m_log = [](const std::string&) {};
  std::unique_ptr<course::course_watch> m_course;
  mutable std::mutex m_catalogue_mutex;
  /// Every catalogue loaded, the current one last: a route holding a spec of an older one keeps it.
  mutable std::vector<std::unique_ptr<const catalogue>> m_catalogues;
  mutable std::atomic<const catalogue*> m_catalogue{nullptr};
  mutable std::chrono::steady_clock::time_point m_checked;
  std::mutex m_pool_mutex;
  std::mutex m_admission_mutex;
  std::vector<std::unique_ptr<store_connection>> m_pool;
  std::atomic<bool> m_stopping{false};
  struct signals;
  std::unique_ptr<signals> m_signals;
};

} // namespace judge::service
