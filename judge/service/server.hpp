// `judge serve`: one process on the GPU host. An HTTP server (http_server.hpp) takes submissions into the
// durable queue and answers the JSON API and the web pages; a pool of compile threads builds them on the
// CPU cores ahead of the GPUs; one worker per GPU grades them, pinned to its GPU. TLS is left to a
// reverse proxy (docs/deploy.md).
#pragma once

#include "judge/service/accounts.hpp"
#include "judge/service/slurm_backend.hpp"
#include "judge/service/submission_queue.hpp"
#include "judge/service/submission_request.hpp"

#include "judge/service/http_server.hpp"

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

namespace judge::service {

struct server_options {
  std::string host = "127.0.0.1";
  int port = 8080;                      ///< 0: any free port (the log line "listening on ..." names it)
  std::filesystem::path db;             ///< the results store (and queue, accounts)
  std::filesystem::path root;           ///< holds problems/ and testcases/
  std::string gpus = "all";             ///< "all", "none", or indexes "0,1"
  int per_minute = 6;                   ///< submissions per student per minute
  int queued_at_once = 3;               ///< a student's submissions not yet graded
  int instructor_queued_at_once = 50;   ///< an instructor's submissions not yet graded (0: no cap)
  double request_deadline_seconds = 30; ///< for a whole request, first byte to last (http_limits)
  std::size_t max_connections = 4096;   ///< open at once (http_limits::connections)
  bool contest = false;                 ///< students see hidden cases' name, shape and verdict only
  /// Robustness cases decide like every other case (grade_options::strict), for every submission.
  bool strict = false;
  std::size_t max_files = 8, max_file_bytes = 256 * 1024;
  unsigned compile_threads = 0; ///< 0: cores
  /// Queue only: no compile threads, no GPU workers (a load test of accepting; workers run elsewhere).
  bool accept_only = false;
  /// "local": a worker process per GPU of this host; "slurm": a job per batch on a Slurm cluster
  /// (slurm_backend.hpp, docs/slurm.md), with `slurm`'s options.
  std::string backend = "local";
  slurm_options slurm;
};

/// One problem as the API lists it.
struct problem_entry {
  std::string name, title, unit;
  std::size_t timed_cases = 0;
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

  /// What came of a submission: queued (its id), or refused by a rate limit (the refusal: HTTP 429).
  struct admission {
    std::int64_t id = 0;
    std::optional<refusal> refused;
  };
  /// Checks `request` (check_submission: throws bad_request) and, unless a rate limit refuses it (students
  /// only), queues it for `who` and wakes the compile threads. Limits and queueing are one step per
  /// server, so two requests at once cannot both pass a limit. The API and the web form both come here.
  admission submit(const account& who, const submission_request& request);

  /// The problems under root/problems, by name: loaded at start, and again when a problem's folder, its
  /// problem.yaml or its cases.yaml changes (looked at once a second at most), so a problem added while the
  /// server runs is offered without a restart. A reload that fails (a problem.yaml half written) keeps
  /// what was loaded and is tried again. What these return stays valid for the server's life.
  const std::vector<problem_entry>& problems() const { return current().problems; }
  /// The spec of `name`, or nullptr for an unknown problem.
  const problem_spec* spec(const std::string& name) const;
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

void add_api_routes(http_router& server, service_state& state); ///< api_routes.cpp
void add_web_routes(http_router& server, service_state& state); ///< web_routes.cpp (the pages)

/// Runs the server until SIGTERM/SIGINT: recovers the queue, starts the compile threads and the GPU
/// workers, listens, and on the signal stops accepting, lets the workers end and returns. Throws
/// listen_error naming the address when it cannot listen.
void serve(const server_options& options, const std::function<void(const std::string&)>& log);

} // namespace judge::service
