#include "judge/sandbox/helper_process.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

namespace judge {

namespace {
std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (std::string& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}
} // namespace

helper_process::helper_process(const std::vector<std::string>& argv,
                               const std::map<std::string, std::string>& environment) {
  // Everything the child needs is made before fork: after it, only async-signal-safe calls.
  std::vector<std::string> args = argv, env;
  for (const auto& [name, value] : environment) env.push_back(name + "=" + value);
  std::vector<char*> arg_pointers = pointers(args), env_pointers = pointers(env);
  const pid_t parent = ::getpid();
  m_pid = ::fork();
  if (m_pid < 0) throw std::system_error(errno, std::generic_category(), "cannot start " + argv.front());
  if (m_pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != parent) ::_exit(1); // the judge ended before the line above: nothing to serve
    ::execve(arg_pointers[0], arg_pointers.data(), env_pointers.data());
    ::_exit(127);
  }
}

helper_process::~helper_process() {
  if (m_pid <= 0 || m_status) return;
  ::kill(m_pid, SIGKILL);
  int status = 0;
  while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
  }
}

std::optional<int> helper_process::poll() {
  if (m_status || m_pid <= 0) return m_status;
  int status = 0;
  const pid_t done = ::waitpid(m_pid, &status, WNOHANG);
  if (done == m_pid) m_status = status;
  return m_status;
}

void helper_process::terminate() {
  if (m_pid > 0 && !m_status) ::kill(m_pid, SIGTERM);
}

} // namespace judge
