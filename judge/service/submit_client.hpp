// `judge submit`'s side of the JSON API (docs/api.md): where the server is, the learner's token, and
// the two calls it makes (submit; ask for a submission). The command (cli/cli_submit.cpp) waits and
// reports; this file only speaks HTTP, so it is tested against a stand-in server.
#pragma once

#include "judge/service/submission_queue.hpp"

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

/// A learner's connection to the server; every call carries "Authorization: Bearer <token>".
class judge_client {
public:
  judge_client(const server_url& server, std::string token);
  ~judge_client();
  judge_client(const judge_client&) = delete;
  judge_client& operator=(const judge_client&) = delete;

  /// POST /api/v1/submissions; returns the new submission's id. Throws server_refusal, server_unreachable.
  std::int64_t submit(const std::string& problem, const std::vector<source_file>& files);
  /// GET /api/v1/submissions/{id}: {"id", "state", ..., "result"} (docs/api.md).
  nlohmann::json submission(std::int64_t id);
  /// GET /api/v1/problems: [{"name", "title", ...}, ...].
  nlohmann::json problems();
  /// GET /api/v1/problems/{name}: {"name", "title", ...}.
  nlohmann::json problem(const std::string& name);
  /// The submission's web page, to show the learner.
  std::string page_url(std::int64_t id) const;

private:
  nlohmann::json answer_of(const char* what, const std::string& path, int status, const std::string& body,
                           const std::string& retry_after);
  server_url m_server;
  std::string m_token;
  std::unique_ptr<httplib::Client> m_http;
};

} // namespace judge::service
