#include "judge_server.hpp"

#include "catch.hpp"
#include "judge_command.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

namespace judge_test {

judge_server::judge_server(const std::filesystem::path& db, const std::vector<std::string>& args) {
  static std::atomic<int> count{0};
  m_log = db.parent_path() / ("serve-" + std::to_string(count++) + ".log");
  std::vector<std::string> argv = {JUDGE_CLI, "serve", "--listen", "127.0.0.1:0", "--db", db.string()};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> pointers;
  for (auto& a : argv) pointers.push_back(a.data());
  pointers.push_back(nullptr);
  const int out = ::open(m_log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  REQUIRE(out >= 0);
  m_pid = ::fork();
  REQUIRE(m_pid >= 0);
  if (m_pid == 0) {
    ::dup2(out, 1);
    ::dup2(out, 2);
    ::execv(pointers[0], pointers.data());
    ::_exit(127);
  }
  ::close(out);
  const std::regex listening("listening on http://127\\.0\\.0\\.1:([0-9]+)/");
  for (int i = 0; i < 300 && m_port == 0; ++i) {
    std::smatch m;
    const std::string text = log();
    if (std::regex_search(text, m, listening))
      m_port = std::stoi(m[1]);
    else if (::waitpid(m_pid, nullptr, WNOHANG) == m_pid) {
      m_pid = -1;
      FAIL("judge serve ended before it listened:\n" << text);
    } else
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  REQUIRE(m_port != 0);
}

judge_server::~judge_server() {
  if (m_pid > 0) stop();
}

httplib::Client judge_server::client(const std::string& token) const {
  httplib::Client c("127.0.0.1", m_port);
  c.set_read_timeout(30, 0);
  if (!token.empty()) c.set_bearer_token_auth(token.c_str());
  return c;
}

int judge_server::stop() {
  if (m_pid <= 0) return -1;
  ::kill(m_pid, SIGTERM);
  int status = 0;
  ::waitpid(m_pid, &status, 0);
  m_pid = -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

void judge_server::kill_now() {
  if (m_pid <= 0) return;
  ::kill(m_pid, SIGKILL);
  ::waitpid(m_pid, nullptr, 0);
  m_pid = -1;
}

std::string judge_server::log() const {
  std::ifstream in(m_log);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string add_account(const std::filesystem::path& db, const std::string& name, const std::string& role) {
  const command_result r = run_judge("users add " + name + " --role " + role + " --db " + db.string());
  REQUIRE(r.status == 0);
  const auto space = r.output.find(' ');
  REQUIRE(space != std::string::npos);
  std::string token = r.output.substr(space + 1);
  while (!token.empty() && (token.back() == '\n' || token.back() == '\r')) token.pop_back();
  return token;
}

} // namespace judge_test
