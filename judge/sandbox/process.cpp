#include "judge/sandbox/process.hpp"

#include "judge/sandbox/cgroup.hpp"
#include "judge/sandbox/process_spawn.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <mutex>
#include <string>
#include <utility>

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace judge {
namespace {

using clock = std::chrono::steady_clock;

// ---- live process groups, for kill_all_children() from a signal handler ----

static_assert(std::atomic<int>::is_always_lock_free, "the registry must be usable from a signal handler");
constexpr std::size_t max_live_groups = 1024;
// Static storage: zero (free) before any code runs.
std::atomic<int> g_live_groups[max_live_groups];

void register_group(int pgid) {
  for (auto& slot : g_live_groups) {
    int expected = 0;
    if (slot.compare_exchange_strong(expected, pgid)) return;
  }
  // Full: the group is still killed by its owner; only a Ctrl-C at this moment would miss it.
}

void unregister_group(int pgid) {
  for (auto& slot : g_live_groups) {
    int expected = pgid;
    if (slot.compare_exchange_strong(expected, 0)) return;
  }
}

// ---- helpers ----

constexpr std::size_t read_chunk = 64 * 1024;
/// [B] a result line longer than this is not a protocol line; the channel is closed instead.
constexpr std::size_t max_result_line = 16 * 1024 * 1024;
/// [ms] after the child is gone, how long output still held open by an escaped process is awaited.
constexpr int final_drain_ms = 250;

/// Milliseconds until `deadline`, rounded up, at most `cap`.
int ms_until(clock::time_point deadline, int cap) {
  auto now = clock::now();
  if (deadline <= now) return 0;
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count() + 1;
  return static_cast<int>(std::min<long long>(left, cap));
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

/// Reads what is available; false at end of file (or error).
bool read_available(int fd, captured_output* capture, std::string* line_buffer, std::size_t cap) {
  char buffer[read_chunk];
  for (;;) {
    ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n > 0) {
      if (line_buffer) {
        line_buffer->append(buffer, static_cast<std::size_t>(n));
        if (line_buffer->size() > max_result_line) return false;
        continue;
      }
      std::size_t room = cap > capture->kept.size() ? cap - capture->kept.size() : 0;
      std::size_t keep = std::min(room, static_cast<std::size_t>(n));
      capture->kept.append(buffer, keep);
      capture->dropped_bytes += static_cast<std::size_t>(n) - keep;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
  }
}

/// write() that turns a closed reader into EPIPE instead of a SIGPIPE killing the judge.
ssize_t write_without_sigpipe(int fd, const char* data, std::size_t size) {
  sigset_t pipe_only, old, pending;
  ::sigemptyset(&pipe_only);
  ::sigaddset(&pipe_only, SIGPIPE);
  ::sigpending(&pending);
  bool was_pending = ::sigismember(&pending, SIGPIPE);
  ::pthread_sigmask(SIG_BLOCK, &pipe_only, &old);
  ssize_t n = ::write(fd, data, size);
  int error = errno;
  if (n < 0 && error == EPIPE && !was_pending) {
    timespec zero{0, 0};
    while (::sigtimedwait(&pipe_only, nullptr, &zero) < 0 && errno == EINTR) {
    }
  }
  ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
  errno = error;
  return n;
}

int open_pidfd(int pid) {
#ifdef SYS_pidfd_open
  long fd = ::syscall(SYS_pidfd_open, pid, 0);
  if (fd >= 0) {
    ::fcntl(static_cast<int>(fd), F_SETFD, FD_CLOEXEC);
    return static_cast<int>(fd);
  }
#endif
  (void)pid;
  return -1;
}

/// Makes the judge the parent of orphans from its children's groups, so that it can reap them itself
/// instead of relying on an init that may never do it (a container's PID 1 often does not).
///
/// Also makes the judge non-dumpable: its /proc/<pid>/mem, environ and fd/ then need CAP_SYS_PTRACE in
/// the judge's own user namespace, which no child in a sandbox has, and which a child of the same user
/// outside one (where namespaces are refused, so /proc is the judge's) lacks too unless it is root.
void become_subreaper() {
  static std::once_flag once;
  std::call_once(once, [] {
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
    ::prctl(PR_SET_DUMPABLE, 0);
  });
}

} // namespace

child_process::child_process(const process_options& options) : m_cap(options.output_cap) {
  become_subreaper();
  detail::spawned_child child = detail::spawn_child(options);
  m_pid = child.pid;
  register_group(m_pid);
  m_stdin = child.stdin_fd;
  m_stdout = child.stdout_fd;
  m_stderr = child.stderr_fd;
  m_result = child.result_fd;
  m_exit_report = child.exit_report_fd;
  m_sandboxed = child.sandboxed;
  m_sandbox_note = std::move(child.sandbox_note);
  m_layers = std::move(child.layers);
  m_cgroup = std::move(child.cgroup);
  m_pidfd = open_pidfd(m_pid);
}

child_process::child_process(child_process&& other) noexcept { *this = std::move(other); }

child_process& child_process::operator=(child_process&& other) noexcept {
  if (this == &other) return *this;
  close_all();
  m_pid = std::exchange(other.m_pid, -1);
  m_pidfd = std::exchange(other.m_pidfd, -1);
  m_stdin = std::exchange(other.m_stdin, -1);
  m_stdout = std::exchange(other.m_stdout, -1);
  m_stderr = std::exchange(other.m_stderr, -1);
  m_result = std::exchange(other.m_result, -1);
  m_cap = other.m_cap;
  m_result_buffer = std::move(other.m_result_buffer);
  m_out = std::move(other.m_out);
  m_err = std::move(other.m_err);
  m_timed_out = other.m_timed_out;
  m_reaped = other.m_reaped;
  m_kill_sent = other.m_kill_sent;
  m_exit_report = std::exchange(other.m_exit_report, -1);
  m_sandboxed = other.m_sandboxed;
  m_sandbox_note = std::move(other.m_sandbox_note);
  m_layers = std::move(other.m_layers);
  m_cgroup = std::move(other.m_cgroup);
  m_status = other.m_status;
  return *this;
}

child_process::~child_process() { close_all(); }

void child_process::close_all() {
  if (m_pid > 0 && !m_reaped) kill_group();
  close_fd(m_stdin);
  close_fd(m_stdout);
  close_fd(m_stderr);
  close_fd(m_result);
  close_fd(m_pidfd);
  close_fd(m_exit_report);
  m_pid = -1;
}

unsigned child_process::drain(int timeout_ms, unsigned wanted) {
  pollfd fds[5];
  int* owners[5];
  nfds_t count = 0;
  auto watch = [&](int& fd, short events) {
    if (fd < 0) return;
    fds[count] = {fd, events, 0};
    owners[count++] = &fd;
  };
  watch(m_stdout, POLLIN);
  watch(m_stderr, POLLIN);
  if (wanted & for_result) watch(m_result, POLLIN);
  if (wanted & for_stdin_space) watch(m_stdin, POLLOUT);
  if (wanted & for_exit) watch(m_pidfd, POLLIN);

  int ready = ::poll(fds, count, timeout_ms);
  if (ready <= 0) return 0;
  unsigned found = 0;
  for (nfds_t i = 0; i < count; ++i) {
    if (fds[i].revents == 0) continue;
    int& fd = *owners[i];
    bool open = true;
    if (&fd == &m_stdout)
      open = read_available(fd, &m_out, nullptr, m_cap);
    else if (&fd == &m_stderr)
      open = read_available(fd, &m_err, nullptr, m_cap);
    else if (&fd == &m_result) {
      open = read_available(fd, nullptr, &m_result_buffer, 0);
      found |= for_result;
    } else if (&fd == &m_stdin)
      found |= for_stdin_space;
    else if (&fd == &m_pidfd)
      found |= for_exit;
    if (!open) close_fd(fd);
  }
  return found;
}

bool child_process::send_line(const std::string& line, clock::time_point deadline) {
  if (m_stdin < 0) return false;
  std::string data = line + '\n';
  std::size_t sent = 0;
  while (sent < data.size()) {
    ssize_t n = write_without_sigpipe(m_stdin, data.data() + sent, data.size() - sent);
    if (n > 0) {
      sent += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      // The child is not reading yet; keep its output flowing so that it is not stuck writing either.
      if (clock::now() >= deadline) {
        m_timed_out = true;
        return false;
      }
      drain(ms_until(deadline, 100), for_stdin_space);
      continue;
    }
    close_stdin(); // EPIPE: the child closed its stdin or exited
    return false;
  }
  return true;
}

void child_process::close_stdin() { close_fd(m_stdin); }

std::optional<std::string> child_process::read_result_line(clock::time_point deadline) {
  bool looked_late = false;
  for (;;) {
    std::size_t newline = m_result_buffer.find('\n');
    if (newline != std::string::npos) {
      std::string line = m_result_buffer.substr(0, newline);
      m_result_buffer.erase(0, newline + 1);
      return line;
    }
    if (m_result < 0) {
      // Closed: a last line without its newline was cut off by the end of the child; it is no answer.
      m_result_buffer.clear();
      return std::nullopt;
    }
    if (clock::now() >= deadline) {
      // A line the child wrote while the judge was busy elsewhere came in time: one last look, without
      // waiting, before the deadline counts as missed.
      if (!looked_late) {
        looked_late = true;
        drain(0, for_result);
        continue;
      }
      m_timed_out = true;
      return std::nullopt;
    }
    drain(ms_until(deadline, 1000), for_result);
  }
}

bool child_process::has_exited() const {
  siginfo_t info{};
  // WNOWAIT: the zombie keeps the process group id reserved until the group has been killed.
  return ::waitid(P_PID, static_cast<id_t>(m_pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == m_pid;
}

void child_process::kill_group() {
  if (m_pid <= 0 || m_reaped) return;
  if (!has_exited()) m_kill_sent = true;
  stop_group();
  reap();
}

void child_process::stop_group() {
  if (m_pid <= 0 || m_reaped) return;
  ::kill(-m_pid, SIGKILL);
  if (m_cgroup) m_cgroup->kill(); // also what left the group, wherever it is
}

void child_process::reap() {
  unregister_group(m_pid);
  int status = 0;
  while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
  }
  // The rest of the group (killed before this) became the judge's children when the leader died.
  while (::waitpid(-m_pid, nullptr, 0) > 0 || errno == EINTR) {
  }
  m_reaped = true;
  // With a PID namespace the child is its init; the program's own status, if it ended first, is here.
  int program_status = 0;
  if (m_exit_report >= 0 && ::read(m_exit_report, &program_status, sizeof program_status) == sizeof program_status)
    status = program_status;
  close_fd(m_exit_report);
  m_cgroup.reset(); // every process of the child is gone: the leaf can go
  m_status = exit_status{};
  if (WIFEXITED(status)) {
    m_status.exited = true;
    m_status.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    m_status.signaled = true;
    m_status.signal = WTERMSIG(status);
    m_status.killed_by_judge = m_kill_sent && m_status.signal == SIGKILL;
  }
  // What the group wrote just before its end is still in the pipes. Every member is dead, so they reach
  // end of file at once, unless a process left the group and holds them open: that one gets a bound.
  close_fd(m_stdin);
  auto until = clock::now() + std::chrono::milliseconds(final_drain_ms);
  while ((m_stdout >= 0 || m_stderr >= 0 || m_result >= 0) && clock::now() < until)
    drain(ms_until(until, final_drain_ms), for_result);
  close_fd(m_stdout);
  close_fd(m_stderr);
  close_fd(m_result);
  close_fd(m_pidfd);
}

child_process::exit_status child_process::wait(clock::time_point deadline) {
  if (m_pid <= 0 || m_reaped) return m_status;
  // A waiting judge has nothing more to send; a child reading stdin to its end may now finish.
  close_stdin();
  while (!has_exited()) {
    if (clock::now() >= deadline) {
      m_timed_out = true;
      break;
    }
    // Without a pidfd the exit is not pollable: look again every 10 ms.
    drain(ms_until(deadline, m_pidfd >= 0 ? 1000 : 10), for_exit);
  }
  kill_group(); // the child at the deadline, or what it left behind in its group
  return m_status;
}

std::string describe(const child_process::exit_status& status) {
  if (status.killed_by_judge) return "stopped by the judge after the time limit";
  if (status.signaled) {
    const char* name = ::sigabbrev_np(status.signal);
    std::string text = "killed by signal " + std::to_string(status.signal);
    return name ? text + " (SIG" + name + ")" : text;
  }
  if (status.exited) return "exited with code " + std::to_string(status.exit_code);
  return "still running";
}

run_result run_to_completion(const process_options& options, std::chrono::duration<double> limit) {
  auto start = clock::now();
  child_process child(options);
  run_result result;
  result.status = child.wait(start + std::chrono::duration_cast<clock::duration>(limit));
  result.out = child.out();
  result.err = child.err();
  result.seconds = std::chrono::duration<double>(clock::now() - start).count();
  return result;
}

std::map<std::string, std::string> child_environment() {
  static const char* const exact[] = {"PATH", "HOME", "LANG", "LC_ALL", "CUDA_VISIBLE_DEVICES"};
  static const char* const prefixes[] = {"CUDA_", "NVIDIA_"};
  std::map<std::string, std::string> env;
  for (char** entry = environ; entry && *entry; ++entry) {
    std::string text = *entry;
    std::size_t equals = text.find('=');
    if (equals == std::string::npos) continue;
    std::string name = text.substr(0, equals);
    // JUDGE_* names the secret and the judge's own settings: never for learner code.
    if (name.rfind("JUDGE_", 0) == 0) continue;
    bool keep =
        std::any_of(std::begin(exact), std::end(exact), [&](const char* e) { return name == e; }) ||
        std::any_of(std::begin(prefixes), std::end(prefixes), [&](const char* p) { return name.rfind(p, 0) == 0; });
    if (keep) env[name] = text.substr(equals + 1);
  }
  return env;
}

std::map<std::string, std::string> judge_environment() {
  std::map<std::string, std::string> env;
  for (char** entry = environ; entry && *entry; ++entry) {
    const std::string text = *entry;
    const std::size_t equals = text.find('=');
    if (equals != std::string::npos) env.emplace(text.substr(0, equals), text.substr(equals + 1));
  }
  return env;
}

void kill_all_children() {
  for (auto& slot : g_live_groups) {
    int pgid = slot.load();
    if (pgid > 0) ::kill(-pgid, SIGKILL);
  }
}

} // namespace judge
