#include "judge/service/submit_client.hpp"

#include "judge/problem/solution_files.hpp"

#include <httplib.h>

#include <fmt/format.h>

#include <cstdlib>
#include <fstream>
#include <regex>

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
  const char* config = std::getenv("XDG_CONFIG_HOME");
  if (config && *config) return std::filesystem::path(config) / "gpu-judge" / "token";
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home && *home ? home : ".") / ".config" / "gpu-judge" / "token";
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

judge_client::judge_client(const server_url& server, std::string token)
    : m_server(server), m_token(std::move(token)), m_http(std::make_unique<httplib::Client>(server.origin)) {
  m_http->set_bearer_token_auth(m_token.c_str());
  m_http->set_connection_timeout(10);
  m_http->set_read_timeout(30);
  m_http->set_write_timeout(30);
}

judge_client::~judge_client() = default;

nlohmann::json judge_client::answer_of(const char* what, const std::string& path, int status, const std::string& body,
                                       const std::string& retry_after) {
  nlohmann::json answer = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (status >= 200 && status < 300) {
    if (answer.is_discarded())
      throw std::runtime_error(fmt::format("{} {}{}: the server's answer is not JSON", what, m_server.origin, path));
    return answer;
  }
  std::string message = answer.is_object() && answer.contains("error") && answer["error"].is_string()
                            ? answer["error"].get<std::string>()
                            : fmt::format("HTTP status {}", status);
  if (status == 401)
    message += "; check the token (JUDGE_TOKEN or " + default_token_file().string() + ") and the server's URL";
  int retry_s = 0;
  if (!retry_after.empty() && retry_after.find_first_not_of("0123456789") == std::string::npos)
    retry_s = std::stoi(retry_after.substr(0, 6));
  if (status == 429 && retry_s > 0) message += fmt::format("; try again in {} s", retry_s);
  throw server_refusal(status, message, retry_s);
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

[[noreturn]] void unreachable(const server_url& server, httplib::Error error) {
  throw server_unreachable(fmt::format("cannot reach the judge at {}: {}; check --server and that the server runs",
                                       server.origin, reason_of(error)));
}
} // namespace

std::int64_t judge_client::submit(const std::string& problem, const std::vector<source_file>& files) {
  nlohmann::json body = {{"problem", problem}, {"files", nlohmann::json::array()}};
  for (const source_file& f : files) body["files"].push_back({{"name", f.name}, {"content", f.content}});
  const std::string path = m_server.prefix + "/api/v1/submissions";
  const auto response = m_http->Post(path.c_str(), body.dump(), "application/json");
  if (!response) unreachable(m_server, response.error());
  const nlohmann::json answer =
      answer_of("submitting to", path, response->status, response->body, response->get_header_value("Retry-After"));
  if (!answer.contains("id") || !answer["id"].is_number_integer())
    throw std::runtime_error("the server accepted the submission but sent no id: " + answer.dump());
  return answer["id"].get<std::int64_t>();
}

nlohmann::json judge_client::submission(std::int64_t id) {
  const std::string path = fmt::format("{}/api/v1/submissions/{}", m_server.prefix, id);
  const auto response = m_http->Get(path.c_str());
  if (!response) unreachable(m_server, response.error());
  return answer_of("asking", path, response->status, response->body, response->get_header_value("Retry-After"));
}

nlohmann::json judge_client::problems() {
  const std::string path = m_server.prefix + "/api/v1/problems";
  const auto response = m_http->Get(path.c_str());
  if (!response) unreachable(m_server, response.error());
  return answer_of("asking", path, response->status, response->body, response->get_header_value("Retry-After"));
}

nlohmann::json judge_client::problem(const std::string& name) {
  const std::string path = m_server.prefix + "/api/v1/problems/" + name;
  const auto response = m_http->Get(path.c_str());
  if (!response) unreachable(m_server, response.error());
  return answer_of("asking", path, response->status, response->body, response->get_header_value("Retry-After"));
}

std::string judge_client::page_url(std::int64_t id) const {
  return fmt::format("{}{}/submissions/{}", m_server.origin, m_server.prefix, id);
}

} // namespace judge::service
