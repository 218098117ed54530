#include "judge/service/queue/api_client.hpp"

#include "judge/base/environment.hpp"
#include "judge/base/usage_error.hpp"

#include <httplib.h>

#include <fmt/format.h>

#include <chrono>
#include <fstream>
#include <regex>
#include <thread>

#include <sys/stat.h>

namespace judge::service {

server_url parse_server_url(const std::string& url) {
  // scheme, host (a name, IPv4, or [IPv6]), optional port, optional path.
  static const std::regex shape(R"(^(https?)://([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:[0-9]{1,5})?(/[^?#]*)?$)");
  std::smatch m;
  if (!std::regex_match(url, m, shape))
    throw usage_error(fmt::format("--server {}: not a server's URL; give http://HOST:PORT or https://HOST "
                                  "(as your instructor gave it)",
                                  url));
  if (m[3].matched && std::stoi(m[3].str().substr(1)) > 65535)
    throw usage_error(fmt::format("--server {}: port {} is not a port (1-65535)", url, m[3].str().substr(1)));
  std::string prefix = m[4].str();
  while (!prefix.empty() && prefix.back() == '/') prefix.pop_back();
  return {m[1].str() + "://" + m[2].str() + m[3].str(), prefix};
}

std::filesystem::path default_token_file() {
  if (const char* config = non_empty_env("XDG_CONFIG_HOME"))
    return std::filesystem::path(config) / "gpu-judge" / "token";
  const char* home = non_empty_env("HOME");
  return std::filesystem::path(home ? home : ".") / ".config" / "gpu-judge" / "token";
}

std::string read_token(const char* from_environment, const std::filesystem::path& file) {
  if (from_environment && *from_environment) return from_environment;
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0)
    throw usage_error(fmt::format("no token: set JUDGE_TOKEN, or put the token your instructor gave you in {} "
                                  "(chmod 600); tokens are never taken on the command line, where the shell's "
                                  "history would keep them",
                                  file.string()));
  // Like ssh with a private key: a token others can read is not used, so the learner fixes it now.
  if (st.st_mode & (S_IRWXG | S_IRWXO))
    throw usage_error(fmt::format("{}: others can read this token file (mode {:o}); make it yours alone with "
                                  "`chmod 600 {}`",
                                  file.string(), st.st_mode & 0777, file.string()));
  std::ifstream in(file);
  std::string token;
  std::getline(in, token);
  while (!token.empty() && (token.back() == '\r' || token.back() == ' ' || token.back() == '\t')) token.pop_back();
  if (token.empty()) throw usage_error(fmt::format("{}: the token file is empty", file.string()));
  return token;
}

namespace {
/// What went wrong, in words a learner can act on (httplib's own names are one word: "Connection").
std::string reason_of(httplib::Error error) {
  switch (error) {
  case httplib::Error::Connection:
    return "the connection was refused or the host could not be reached (nothing listens on that port, or it is "
           "not the server's address)";
  case httplib::Error::ConnectionTimeout:
    return "the connection timed out (the host is unreachable, or a firewall drops the connection)";
  case httplib::Error::Read:
    return "the connection broke while reading the answer (the server stopped?)";
  case httplib::Error::Write:
    return "the connection broke while sending (the server stopped or refused the size)";
  case httplib::Error::SSLConnection:
  case httplib::Error::SSLServerVerification:
    return "the TLS connection failed (" + httplib::to_string(error) + ")";
  default:
    return httplib::to_string(error);
  }
}

api_answer answer_from(const httplib::Result& result) {
  api_answer a;
  if (!result) {
    a.error = httplib::to_string(result.error());
    a.reason = reason_of(result.error());
    return a;
  }
  a.status = result->status;
  a.body = result->body;
  a.retry_after = result->get_header_value("Retry-After");
  return a;
}

[[noreturn]] void unreachable(const server_url& server, const api_answer& answer) {
  throw server_unreachable(fmt::format("cannot reach the judge at {}: {}; check --server and that the server runs",
                                       server.origin, answer.reason));
}
} // namespace

api_client::api_client(const server_url& server, std::string token, api_client_limits limits)
    : m_server(server), m_token(std::move(token)), m_limits(limits),
      m_http(std::make_unique<httplib::Client>(server.origin)) {
  m_http->set_bearer_token_auth(m_token.c_str());
  m_http->set_connection_timeout(m_limits.connect_seconds);
  m_http->set_read_timeout(m_limits.read_seconds);
  m_http->set_write_timeout(m_limits.write_seconds);
}

api_client::~api_client() = default;

namespace {
/// `call` until an answer comes, at most `attempts` times, waiting 1, 2, 4, 8 s between (a server restarting).
template <typename F> api_answer with_retries(int attempts, F call) {
  for (int attempt = 1;; ++attempt) {
    api_answer a = answer_from(call());
    if (a || attempt >= attempts) return a;
    std::this_thread::sleep_for(std::chrono::seconds(1 << std::min(attempt - 1, 3)));
  }
}
} // namespace

api_answer api_client::get(const std::string& path) {
  const std::string full = m_server.prefix + path;
  return with_retries(m_limits.attempts, [&] { return m_http->Get(full.c_str()); });
}

api_answer api_client::post(const std::string& path, const std::string& body) {
  const std::string full = m_server.prefix + path;
  return with_retries(m_limits.attempts, [&] { return m_http->Post(full.c_str(), body, "application/json"); });
}

nlohmann::json api_client::answer_of(const char* what, const std::string& path, const api_answer& answer) {
  if (!answer) unreachable(m_server, answer);
  const std::string where = m_server.prefix + path;
  nlohmann::json doc = nlohmann::json::parse(answer.body, nullptr, /*allow_exceptions=*/false);
  if (answer.status >= 200 && answer.status < 300) {
    if (doc.is_discarded())
      throw std::runtime_error(fmt::format("{} {}{}: the server's answer is not JSON", what, m_server.origin, where));
    return doc;
  }
  std::string message = doc.is_object() && doc.contains("error") && doc["error"].is_string()
                            ? doc["error"].get<std::string>()
                            : fmt::format("HTTP status {}", answer.status);
  if (answer.status == 401)
    message += "; check the token (JUDGE_TOKEN or " + default_token_file().string() + ") and the server's URL";
  int retry_s = 0;
  const std::string& retry_after = answer.retry_after;
  if (!retry_after.empty() && retry_after.find_first_not_of("0123456789") == std::string::npos)
    retry_s = std::stoi(retry_after.substr(0, 6));
  if (answer.status == 429 && retry_s > 0) message += fmt::format("; try again in {} s", retry_s);
  throw server_refusal(answer.status, message, retry_s);
}

std::int64_t api_client::submit(const std::string& problem, const std::vector<source_file>& files) {
  nlohmann::json body = {{"problem", problem}, {"files", nlohmann::json::array()}};
  for (const source_file& f : files) body["files"].push_back({{"name", f.name}, {"content", f.content}});
  const std::string path = "/api/v1/submissions";
  const nlohmann::json answer = answer_of("submitting to", path, post(path, body.dump()));
  if (!answer.contains("id") || !answer["id"].is_number_integer())
    throw std::runtime_error("the server accepted the submission but sent no id: " + answer.dump());
  return answer["id"].get<std::int64_t>();
}

nlohmann::json api_client::rejudge(const std::string& problem, const std::string& since) {
  nlohmann::json body = nlohmann::json::object();
  if (!since.empty()) body["since"] = since;
  const std::string path = fmt::format("/api/v1/problems/{}/rejudge", problem);
  return answer_of("rejudging on", path, post(path, body.dump()));
}

nlohmann::json api_client::submission(std::int64_t id) {
  const std::string path = fmt::format("/api/v1/submissions/{}", id);
  return answer_of("asking", path, get(path));
}

nlohmann::json api_client::problems() {
  const std::string path = "/api/v1/problems";
  return answer_of("asking", path, get(path));
}

nlohmann::json api_client::problem(const std::string& name) {
  const std::string path = "/api/v1/problems/" + name;
  return answer_of("asking", path, get(path));
}

std::string api_client::page_url(std::int64_t id) const {
  return fmt::format("{}{}/submissions/{}", m_server.origin, m_server.prefix, id);
}

api_answer api_client::job_batch(const std::string& key) { return get("/api/v1/slurm/jobs/" + key); }

api_answer api_client::post_job_result(const std::string& key, const nlohmann::json& body) {
  return post("/api/v1/slurm/jobs/" + key + "/results", body.dump());
}

api_answer api_client::post_job_fault(const std::string& key, const nlohmann::json& body) {
  return post("/api/v1/slurm/jobs/" + key + "/fault", body.dump());
}

} // namespace judge::service
