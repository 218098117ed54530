// A real `judge serve` for a test: started on 127.0.0.1 with a free port (the kernel picks it), talked
// to over HTTP, stopped with SIGTERM (or killed with SIGKILL, for the crash test).
#pragma once

#include <httplib.h>

#include <filesystem>
#include <string>
#include <vector>

namespace judge_test {

class judge_server {
public:
  /// Starts `judge serve --listen 127.0.0.1:0 --db DB ARGS...` and waits (up to 30 s) for its "listening
  /// on" line. The server's output goes to DB's folder / serve-<n>.log.
  judge_server(const std::filesystem::path& db, const std::vector<std::string>& args = {});
  ~judge_server();
  judge_server(const judge_server&) = delete;
  judge_server& operator=(const judge_server&) = delete;

  int port() const { return m_port; }
  /// The server's process id (-1 once it has ended).
  int pid() const { return m_pid; }
  /// A client for this server that sends `token` as a bearer token ("" for none).
  httplib::Client client(const std::string& token) const;
  /// SIGTERM, then waits; returns the exit status (-1 when it did not exit normally).
  int stop();
  /// SIGKILL, then waits.
  void kill_now();
  /// Everything the server has printed so far.
  std::string log() const;

private:
  std::filesystem::path m_log;
  int m_pid = -1;
  int m_port = 0;
};

/// `judge users add NAME --role ROLE --db DB`: the new token.
std::string add_account(const std::filesystem::path& db, const std::string& name, const std::string& role);

} // namespace judge_test
