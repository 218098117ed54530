// The one client of the JSON API (docs/api.md): where the server is, the token, and the calls. A
// learner's `judge submit` submits and asks for a submission (cli/cli_submit.cpp waits and reports); a
// Slurm job's `judge slurm-job` fetches its batch and posts each result (slurm/slurm_job_runner.cpp). This
// file only speaks HTTP, so it is tested against a stand-in server.
#pragma once

#include "judge/service/queue/submission_queue.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace httplib {
class Client;
}

namespace judge::service {

/// "http://host:port" or "https://host" (TLS at a reverse proxy, docs/deploy.md), and a path under which
/// the judge is served ("" or "/judge"). Throws usage_error naming the URL and what is wrong with it.
struct server_url {
  std::string origin; ///< scheme://host[:port]
  std::string prefix; ///< "" or "/path" without a trailing '/'
};
server_url parse_server_url(const std::string& url);

/// Where the token is kept: $XDG_CONFIG_HOME/gpu-judge/token, else ~/.config/gpu-judge/token.
std::filesystem::path default_token_file();

/// The token: `from_environment` ($JUDGE_TOKEN) when it is set and not empty, else the first line of
/// `file`. Never from the command line, where the shell's history would keep it. Throws usage_error when
/// there is none, and when the file is readable by its group or by others (it says to chmod 600 it).
std::string read_token(const char* from_environment, const std::filesystem::path& file);

/// An answer of 4xx or 5xx: its status, the server's {"error"} message, and Retry-After's seconds on a
/// 429 (0 when absent).
class server_refusal : public std::runtime_error {
public:
  server_refusal(int status, const std::string& message, int retry_after_s = 0)
      : std::runtime_error(message), m_status(status), m_retry_after_s(retry_after_s) {}
  int status() const { return m_status; }
  int retry_after_s() const { return m_retry_after_s; }

private:
  int m_status;
  int m_retry_after_s;
};

/// No answer at all (refused connection, unknown host, timeout): usage_error would be wrong, as the
/// URL may be right and the server down; the message names the URL and the transport's error.
class server_unreachable : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// How long a call may take [s], and how often it is tried when no answer comes (after 1, 2, 4, 8 s).
struct api_client_limits {
  int connect_seconds = 10;
  int read_seconds = 30;
  int write_seconds = 30;
  int attempts = 1;
};

/// The limits of a Slurm job's calls: the server may be busy on a deadline night, so reads wait long, and
/// a server restarting is waited for.
inline constexpr api_client_limits job_limits{10, 60, 30, 5};

/// One answer as it came: its status and body, or, when none came, the transport's error.
struct api_answer {
  int status = 0; ///< 0: no answer (then `error` and `reason` say why)
  std::string body;
  std::string retry_after; ///< the Retry-After header, "" when absent
  std::string error;       ///< the transport's own name for what went wrong ("Connection")
  std::string reason;      ///< the same in words a learner can act on
  explicit operator bool() const { return status != 0; }
};

/// A connection to the server; every call carries "Authorization: Bearer <token>".
class api_client {
public:
  api_client(const server_url& server, std::string token, api_client_limits limits = {});
  ~api_client();
  api_client(const api_client&) = delete;
  api_client& operator=(const api_client&) = delete;

  // A learner's calls. Each throws server_refusal for a 4xx or 5xx and server_unreachable for no answer.

  /// POST /api/v1/submissions; returns the new submission's id.
  std::int64_t submit(const std::string& problem, const std::vector<source_file>& files);
  /// GET /api/v1/submissions/{id}: {"id", "state", ..., "result"} (docs/api.md).
  nlohmann::json submission(std::int64_t id);
  /// GET /api/v1/problems: [{"name", "title", ...}, ...].
  nlohmann::json problems();
  /// GET /api/v1/problems/{name}: {"name", "title", ...}.
  nlohmann::json problem(const std::string& name);
  /// POST /api/v1/problems/{name}/rejudge (instructors): {"problem", "case_set", "since", "queued": [ids]}.
  nlohmann::json rejudge(const std::string& problem, const std::string& since);
  /// The submission's web page, to show the learner.
  std::string page_url(std::int64_t id) const;

  // A Slurm job's calls (its key names the job): answers as they came, for the job to log and judge.

  /// GET /api/v1/slurm/jobs/{key}: {"submissions": [...]}, the batch.
  api_answer job_batch(const std::string& key);
  /// POST /api/v1/slurm/jobs/{key}/results: one submission's result (200), or 409 when the job no longer
  /// holds it.
  api_answer post_job_result(const std::string& key, const nlohmann::json& body);
  /// POST /api/v1/slurm/jobs/{key}/fault: the node cannot grade (202).
  api_answer post_job_fault(const std::string& key, const nlohmann::json& body);

private:
  api_answer get(const std::string& path);
  api_answer post(const std::string& path, const std::string& body);
  nlohmann::json answer_of(const char* what, const std::string& path, const api_answer& answer);
  server_url m_server;
  std::string m_token;
  api_client_limits m_limits;
  std::unique_ptr<httplib::Client> m_http;
};

} // namespace judge::service
