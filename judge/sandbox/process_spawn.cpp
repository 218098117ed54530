#include "judge/sandbox/process_spawn.hpp"

#include "judge/sandbox/kernel_file.hpp"

#include "judge/sandbox/private_root.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

namespace judge::detail {
namespace {

/// Steps of the child's set-up, named in the messages of a failure.
enum class step : char {
  none,
  clone,
  unshare,
  uid_map,
  gid_map,
  drop_user,
  private_mounts,
  root,
  hide,
  lock,
  fork_program,
  fds,
  limits,
  chdir,
  exec
};

const char* step_name(step s) {
  switch (s) {
  case step::none:
    return "";
  case step::clone:
    return "clone";
  case step::unshare:
    return "unshare";
  case step::uid_map:
    return "writing uid_map";
  case step::gid_map:
    return "writing gid_map";
  case step::drop_user:
    return "becoming the sandbox's unprivileged user";
  case step::private_mounts:
    return "making mounts private";
  case step::root:
    return "building the private root";
  case step::hide:
    return "covering a hidden path";
  case step::lock:
    return "locking the mounts";
  case step::fork_program:
    return "starting the program in its PID namespace";
  case step::fds:
    return "setting up file descriptors";
  case step::limits:
    return "setting resource limits";
  case step::chdir:
    return "entering the working directory";
  case step::exec:
    return "exec";
  }
  return "?";
}

/// What the child tells the judge through the status pipe before exec: one 's' (sandboxed) or 'n'
/// (namespaces refused) record, an 'r' record if the private root could not be built (`index`: the
/// plan's step), then an 'e' record only if it could not exec. A successful exec closes the pipe.
struct child_report {
  char kind = 'n';
  step failed = step::none;
  int error = 0;
  int index = -1;
};

/// A file descriptor that closes itself.
class unique_fd {
public:
  unique_fd() = default;
  explicit unique_fd(int fd) : m_fd(fd) {}
  unique_fd(unique_fd&& other) noexcept : m_fd(other.release()) {}
  unique_fd& operator=(unique_fd&& other) noexcept {
    reset(other.release());
    return *this;
  }
  ~unique_fd() { reset(); }
  int get() const { return m_fd; }
  int release() {
    int fd = m_fd;
    m_fd = -1;
    return fd;
  }
  void reset(int fd = -1) {
    if (m_fd >= 0) ::close(m_fd);
    m_fd = fd;
  }

private:
  int m_fd = -1;
};

struct pipe_pair {
  unique_fd read, write;
};

pipe_pair make_pipe() {
  int fds[2];
  // Close-on-exec from birth: another thread forking at the same time must not inherit them.
  if (::pipe2(fds, O_CLOEXEC) != 0) throw std::system_error(errno, std::generic_category(), "pipe2");
  return {unique_fd(fds[0]), unique_fd(fds[1])};
}

void set_nonblocking(int fd) {
  int flags = ::fcntl(fd, F_GETFL);
  ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

struct hidden_mount {
  std::string path;
  bool is_dir = false;
};

/// The empty folder the private root is mounted on, in the judge's view: removed again once the child
/// has moved its root away from it (then it is no mount point in any namespace).
class root_folder {
public:
  root_folder() = default;
  root_folder(const root_folder&) = delete;
  root_folder& operator=(const root_folder&) = delete;
  ~root_folder() {
    if (!m_path.empty()) ::rmdir(m_path.c_str());
  }
  /// Creates it; false (errno set) when the temporary folder is not writable.
  bool create() {
    std::string pattern = (std::filesystem::temp_directory_path() / "judge-root.XXXXXX").string();
    if (!::mkdtemp(pattern.data())) return false;
    m_path = pattern;
    return true;
  }
  const std::string& path() const { return m_path; }

private:
  std::string m_path;
};

/// Everything the child needs, prepared before fork: after fork in a multi-threaded judge the child may
/// only make async-signal-safe calls (no allocation, no locks).
struct child_plan {
  std::string program;
  std::vector<std::string> argv_storage, env_storage;
  std::vector<char*> argv, envp;
  std::string working_dir;
  int fds[5] = {-1, -1, -1, -1, -1}; ///< the child's ends for fds 0..4
  int status_fd = -1;
  int exit_report_fd = -1; ///< the init's end of the exit report pipe (PID namespace only)
  int go_fd = -1; ///< with a cgroup or maps_by_parent: the child waits for the judge's byte here first
  /// The judge is root: the child becomes the sandbox user (sandbox_uid, sandbox_gid), with no
  /// supplementary groups, before any program runs. With a PID namespace the judge writes the outer
  /// maps for it (only a process privileged outside may map another uid); without, the child drops
  /// its ids itself before it makes its namespaces.
  bool drop_user = false;
  bool maps_by_parent = false;
  unsigned sandbox_uid = 0, sandbox_gid = 0;
  bool sandbox = false;
  bool private_root = false;
  bool read_only_proc = false;
  bool loopback = false;
  root_plan root;
  std::vector<hidden_mount> hidden;
  std::string outer_uid_map, outer_gid_map, inner_uid_map, inner_gid_map;
  std::string parent_uid_map, parent_gid_map; ///< with maps_by_parent: what the judge writes
  std::string judge_uid_map, judge_gid_map;   ///< the fallback where the judge cannot map the sandbox user
  rlim_t address_space = RLIM_INFINITY, file_size = RLIM_INFINITY;
};

/// The uid and gid a judge run as root gives its sandboxed children: the kernel's overflow id
/// ("nobody"), which owns no file of the system.
constexpr unsigned sandbox_user_id = 65534;

std::string find_program(const std::string& name, const std::map<std::string, std::string>& env) {
  if (name.find('/') != std::string::npos) return name;
  auto it = env.find("PATH");
  const char* judge_path = std::getenv("PATH");
  std::string search = it != env.end() ? it->second : judge_path ? judge_path : "/usr/local/bin:/usr/bin:/bin";
  std::size_t begin = 0;
  while (begin <= search.size()) {
    std::size_t end = search.find(':', begin);
    if (end == std::string::npos) end = search.size();
    std::string dir = search.substr(begin, end - begin);
    std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    begin = end + 1;
  }
  throw std::system_error(ENOENT, std::generic_category(), "cannot start " + name + " (not found on PATH)");
}

// ---- the child (async-signal-safe calls only) ----

/// Sets `resource` to at most `wanted`, never above what the judge itself was given: a judge started
/// under a tighter limit (prlimit, a batch system) passes that on rather than failing to raise it.
using rlimit_resource = decltype(RLIMIT_AS); // glibc: an enum in C++, an int elsewhere

bool lower_limit(rlimit_resource resource, rlim_t wanted) {
  rlimit current{};
  if (::getrlimit(resource, &current) != 0) return false;
  const rlim_t limit = wanted < current.rlim_max ? wanted : current.rlim_max;
  const rlimit lowered{limit, limit};
  return ::setrlimit(resource, &lowered) == 0;
}

void report(int status_fd, const child_report& r) {
  ssize_t ignored = ::write(status_fd, &r, sizeof r);
  (void)ignored;
}

[[noreturn]] void fail(int status_fd, step s) {
  report(status_fd, {'e', s, errno, -1});
  ::_exit(127);
}

/// Leaves every supplementary group and takes the uid and gid that `uid`/`gid` name in the current
/// user namespace. Raw system calls: glibc's setresuid and friends apply the change to every thread
/// the process had, and in a child cloned from the multi-threaded judge they would wait forever for
/// threads that are not there. A change of uid makes the process undumpable, which would give its
/// /proc files to root: it is made dumpable again.
bool become(unsigned uid, unsigned gid) {
  if (::syscall(SYS_setgroups, 0, nullptr) != 0 || ::syscall(SYS_setresgid, gid, gid, gid) != 0 ||
      ::syscall(SYS_setresuid, uid, uid, uid) != 0)
    return false;
  ::prctl(PR_SET_DUMPABLE, 1);
  return true;
}

/// Sets the network namespace's `lo` up (a new namespace has it down). 0 or the errno.
int bring_loopback_up() {
  const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return errno;
  ifreq request{};
  std::memcpy(request.ifr_name, "lo", 3);
  int error = 0;
  if (::ioctl(fd, SIOCGIFFLAGS, &request) != 0) {
    error = errno;
  } else {
    request.ifr_flags = static_cast<short>(request.ifr_flags | IFF_UP | IFF_RUNNING);
    if (::ioctl(fd, SIOCSIFFLAGS, &request) != 0) error = errno;
  }
  ::close(fd);
  return error;
}

/// The new root's /proc becomes read-only (a locked mount may be restricted further, never relaxed).
int make_proc_read_only() {
  mount_attr attr{};
  attr.attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC;
  return ::syscall(SYS_mount_setattr, AT_FDCWD, "/proc", 0, &attr, sizeof attr) == 0 ? 0 : errno;
}

/// The judge's byte on the go pipe: the maps it wrote for the child, or that it could not.
constexpr char go_mapped = 'g', go_unmapped = 'x';

/// Sets up the namespaces (entering them first unless the clone that started the child did), the
/// private root or, where it cannot be built, covers over the hidden paths, and locks the mounts.
/// Reports what it achieved; a refusal leaves the child outside the sandbox, not stopped.
///
/// Returns whether the private root was entered. With a scratch folder in the plan, *scratch_fd is then
/// a descriptor of that folder as the judge sees it (opened before the root hid it), else -1.
bool enter_sandbox(const child_plan& plan, bool in_namespaces, char go, int status_fd, int* scratch_fd = nullptr) {
  auto refused = [&](step s) {
    report(status_fd, {'n', s, errno, -1});
    return false;
  };
  if (scratch_fd) *scratch_fd = -1;
  // Without a PID namespace the child is still the judge's root: it drops to the sandbox user first,
  // and then maps that user itself, as an unprivileged process may.
  if (!in_namespaces && plan.drop_user && !become(plan.sandbox_uid, plan.sandbox_gid)) return refused(step::drop_user);
  if (!in_namespaces && ::unshare(CLONE_NEWUSER | CLONE_NEWNET | CLONE_NEWNS) != 0) return refused(step::unshare);
  const bool mapped_by_judge = in_namespaces && plan.maps_by_parent && go == go_mapped;
  if (!mapped_by_judge) {
    // Where the judge could not map the sandbox user (a judge that is root only in a container's user
    // namespace, where 65534 is not mapped), the child stays the judge's uid, as for a judge that is not
    // root, rather than leave the sandbox.
    const bool as_judge = in_namespaces && plan.maps_by_parent;
    // Kernels before 3.19 have no setgroups file; there gid_map needs no "deny".
    write_kernel_file("/proc/self/setgroups", "deny");
    if (!write_kernel_file("/proc/self/uid_map", as_judge ? plan.judge_uid_map : plan.outer_uid_map))
      return refused(step::uid_map);
    if (!write_kernel_file("/proc/self/gid_map", as_judge ? plan.judge_gid_map : plan.outer_gid_map))
      return refused(step::gid_map);
  }
  // A tool's front end reaches the library it injected over 127.0.0.1. A failure shows as the tool's
  // own (it cannot connect); the sandbox is whole either way.
  if (plan.loopback) (void)bring_loopback_up();
  // Nothing mounted here may propagate back to the judge's namespace.
  if (::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return refused(step::private_mounts);
  bool rooted = false;
  if (plan.private_root) {
    int folder = -1;
    if (scratch_fd && !plan.root.scratch.empty())
      folder = ::open(plan.root.scratch.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int failed_step = -1;
    if (int error = enter_private_root(plan.root, &failed_step)) {
      report(status_fd, {'r', step::root, error, failed_step});
      if (folder >= 0) ::close(folder);
    } else {
      rooted = true;
      if (scratch_fd) *scratch_fd = folder;
    }
  }
  if (!rooted) {
    for (const hidden_mount& h : plan.hidden) {
      int rc = h.is_dir ? ::mount("tmpfs", h.path.c_str(), "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC,
                                  "size=4k,mode=0755")
                        : ::mount("/dev/null", h.path.c_str(), nullptr, MS_BIND, nullptr);
      if (rc != 0) return refused(step::hide);
    }
  }
  // The root was built with the judge's own file rights (the judge's folders may be closed to others);
  // from here on the child is the sandbox user: root of its namespace (0 there), the unprivileged uid
  // outside, with no supplementary group of the judge's.
  if (mapped_by_judge && !become(0, 0)) return refused(step::drop_user);
  // As root of that namespace the child could unmount the covers again. Entering a second user and mount
  // namespace locks every mount it inherits (they can no longer be unmounted or made writable one by
  // one), and maps the child back to its own uid, so it holds no capabilities after exec.
  if (::unshare(CLONE_NEWUSER | CLONE_NEWNS) != 0) return refused(step::lock);
  write_kernel_file("/proc/self/setgroups", "deny");
  if (!write_kernel_file("/proc/self/uid_map", plan.inner_uid_map)) return refused(step::lock);
  if (!write_kernel_file("/proc/self/gid_map", plan.inner_gid_map)) return refused(step::lock);
  // The last write to /proc was the map: from here /proc is read-only, so that no one writes
  // /proc/self/mem, which reaches pages the process may not write (its code) and so makes memory
  // executable after load without any mprotect.
  if (rooted && plan.read_only_proc && make_proc_read_only() != 0) return refused(step::lock);
  report(status_fd, {'s', step::none, 0, -1});
  return rooted;
}

/// Closes every descriptor from `first` on but `keep` and `also` (-1: none).
void close_from(int first, int keep, int also);

void close_from(int first, int keep) { close_from(first, keep, -1); }

void close_from(int first, int keep, int also) {
  if (also >= first && also != keep) {
    // Around the lower of the two, then from there on around the other.
    const int low = std::min(keep, also), high = std::max(keep, also);
    for (int fd = first; fd < low; ++fd) ::close(fd);
    close_from(low + 1, high);
    return;
  }
  // close_range (Linux 5.9) closes even descriptors another thread opened without O_CLOEXEC.
#ifdef SYS_close_range
  if (keep > first && ::syscall(SYS_close_range, first, keep - 1, 0) == 0 &&
      ::syscall(SYS_close_range, keep + 1, ~0u, 0) == 0)
    return;
#endif
  rlimit files{};
  ::getrlimit(RLIMIT_NOFILE, &files);
  int last = files.rlim_cur == RLIM_INFINITY || files.rlim_cur > (1u << 20) ? (1 << 20) : int(files.rlim_cur);
  for (int fd = first; fd < last; ++fd)
    if (fd != keep) ::close(fd);
}

void reset_signals() {
  // Ignored signals (the judge ignores SIGPIPE) and blocked ones would survive exec.
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  for (int sig = 1; sig < NSIG; ++sig)
    if (sig != SIGKILL && sig != SIGSTOP) ::sigaction(sig, &default_action, nullptr);
  sigset_t none;
  ::sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
}

/// The program's part: descriptors 0..4, limits, working directory, exec.
[[noreturn]] void exec_program(const child_plan& plan, int status_fd) {
  constexpr int passed = sizeof plan.fds / sizeof plan.fds[0];
  int moved[passed];
  for (int i = 0; i < passed; ++i) {
    moved[i] = plan.fds[i] < 0 ? -1 : ::fcntl(plan.fds[i], F_DUPFD_CLOEXEC, 10);
    if (plan.fds[i] >= 0 && moved[i] < 0) fail(status_fd, step::fds);
  }
  for (int i = 0; i < passed; ++i)
    if (moved[i] >= 0 && ::dup2(moved[i], i) != i) fail(status_fd, step::fds);
  // Every other descriptor goes: those of 3..4 not passed, and everything above.
  for (int i = 3; i < passed; ++i)
    if (moved[i] < 0) ::close(i);
  close_from(passed, status_fd);

  if (!plan.working_dir.empty() && ::chdir(plan.working_dir.c_str()) != 0) fail(status_fd, step::chdir);
  // A crash must not leave a core file of learner code (and its data) lying around.
  if (!lower_limit(RLIMIT_CORE, 0) || !lower_limit(RLIMIT_AS, plan.address_space) ||
      !lower_limit(RLIMIT_FSIZE, plan.file_size))
    fail(status_fd, step::limits);

  ::execve(plan.program.c_str(), plan.argv.data(), plan.envp.data());
  fail(status_fd, step::exec);
}

/// The child started by a plain fork: no PID namespace; namespaces by unshare when asked.
/// The child's first step. With a cgroup, it waits until the judge has moved it there: nothing it
/// starts may escape it.
char wait_for_go(const child_plan& plan) {
  // The judge is not dumpable (process.cpp); its child must be, or /proc/self/uid_map belongs to root
  // and a judge run by an ordinary user could not write it.
  ::prctl(PR_SET_DUMPABLE, 1);
  if (plan.go_fd < 0) return go_mapped;
  char go = go_unmapped;
  while (::read(plan.go_fd, &go, 1) < 0 && errno == EINTR) {
  }
  return go;
}

[[noreturn]] void run_child(const child_plan& plan) {
  const char go = wait_for_go(plan);
  ::setpgid(0, 0);
  reset_signals();
  // Above fd 10 first, so that dup2 onto 0..3 never overwrites a descriptor still to be moved.
  int status_fd = ::fcntl(plan.status_fd, F_DUPFD_CLOEXEC, 10);
  if (status_fd < 0) ::_exit(127);
  if (plan.sandbox) enter_sandbox(plan, false, go, status_fd);
  exec_program(plan, status_fd);
}

/// One entry of getdents64, as the kernel lays it out.
struct kernel_dirent {
  unsigned long long d_ino;
  long long d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[1];
};

/// Copies the file `name` of the folder `from` into the folder `into`, under the same name and with its
/// permission bits (less group and other write). Returns 0 or an errno.
int copy_file_out(int from, int into, const char* name, mode_t mode) {
  const int in = ::openat(from, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (in < 0) return errno;
  const int out = ::openat(into, name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, mode & 0755);
  if (out < 0) {
    const int error = errno;
    ::close(in);
    return error;
  }
  int error = 0;
  char buffer[16 * 1024];
  for (;;) {
    ssize_t n = ::read(in, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) error = errno;
    if (n <= 0) break;
    for (ssize_t done = 0; done < n;) {
      const ssize_t w = ::write(out, buffer + done, static_cast<std::size_t>(n - done));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) {
        error = w < 0 ? errno : EIO;
        break;
      }
      done += w;
    }
    if (error) break;
  }
  ::fchmod(out, mode & 0755); // an existing file keeps its old bits through O_CREAT
  if (::close(out) != 0 && !error) error = errno;
  ::close(in);
  return error;
}

/// Copies what the program left in the scratch tmpfs (`folder`, a path of the new root) into the judge's
/// folder `into`: the regular files at its top level that the program wrote. The folder's old contents,
/// bound in read-only, live on other file systems and stay; links, folders and other kinds are left.
/// Async-signal-safe. Returns 0 or the errno of the first failure.
int copy_scratch_out(const char* folder, int into) {
  const int from = ::open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (from < 0) return errno;
  struct stat top {};
  int error = ::fstat(from, &top) == 0 ? 0 : errno;
  alignas(8) char entries[8 * 1024];
  while (!error) {
    const long n = ::syscall(SYS_getdents64, from, entries, sizeof entries);
    if (n < 0) error = errno;
    if (n <= 0) break;
    for (long at = 0; at < n && !error;) {
      const auto* entry = reinterpret_cast<const kernel_dirent*>(entries + at);
      at += entry->d_reclen;
      struct stat info {};
      if (::fstatat(from, entry->d_name, &info, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(info.st_mode) ||
          info.st_dev != top.st_dev)
        continue;
      error = copy_file_out(from, into, entry->d_name, info.st_mode);
    }
  }
  ::close(from);
  return error;
}

/// The child started in new namespaces, PID 1 of its own PID namespace. It sets the sandbox up, starts
/// the program as PID 2 and waits. An init cannot be killed by a signal it has no handler for, not even
/// one it sends itself (abort()), so the program is not the init: this one reports the program's wait
/// status to the judge and exits, and with it every process left in the namespace dies (setsid() or not).
[[noreturn]] void run_init(const child_plan& plan) {
  const char go = wait_for_go(plan);
  ::setpgid(0, 0);
  reset_signals();
  int status_fd = ::fcntl(plan.status_fd, F_DUPFD_CLOEXEC, 10);
  if (status_fd < 0) ::_exit(127);
  int scratch_fd = -1;
  enter_sandbox(plan, true, go, status_fd, &scratch_fd);
  // The init holds the judge's scratch folder: not dumpable, so that the program (the same user, with
  // no capability in this namespace) can neither trace it nor open its /proc/1/fd.
  if (scratch_fd >= 0) ::prctl(PR_SET_DUMPABLE, 0);
  // A raw clone, like fork: glibc's fork would take locks another thread of the judge may have held.
  long program = ::syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
  if (program < 0) fail(status_fd, step::fork_program);
  if (program == 0) exec_program(plan, status_fd);
  close_from(0, plan.exit_report_fd, scratch_fd);
  int program_status = 0;
  for (;;) {
    int status = 0;
    pid_t done = ::waitpid(-1, &status, 0);
    if (done == program) {
      program_status = status;
      break;
    }
    if (done < 0 && errno != EINTR) ::_exit(127);
  }
  if (scratch_fd >= 0) {
    // Nothing may write the scratch folder while it is copied: what the program left running goes first.
    ::kill(-1, SIGKILL);
    while (::waitpid(-1, nullptr, 0) > 0 || errno == EINTR) {
    }
    // A copy that fails (the judge's disk is full) leaves the outputs missing, which the judge notices.
    (void)copy_scratch_out(plan.root.scratch.c_str(), scratch_fd);
    ::close(scratch_fd);
  }
  ssize_t ignored = ::write(plan.exit_report_fd, &program_status, sizeof program_status);
  (void)ignored;
  ::_exit(0);
}

// ---- the parent ----

/// Writes the outer uid and gid maps of the child `pid` (in its own user namespace, not yet going on).
bool write_child_maps(int pid, const child_plan& plan) {
  const std::string proc = "/proc/" + std::to_string(pid);
  return write_kernel_file((proc + "/uid_map").c_str(), plan.parent_uid_map) &&
         write_kernel_file((proc + "/gid_map").c_str(), plan.parent_gid_map);
}

/// Gives the sandbox user the writable folders the judge made for the child (not what is inside them:
/// the child creates its own files there) and the new root's mount point. Only folders the judge owns.
void hand_to_sandbox_user(const process_options& options, const root_folder& root, const child_plan& plan) {
  std::vector<std::string> folders;
  for (const auto& path : options.writable_paths) folders.push_back(path.string());
  if (!root.path().empty()) folders.push_back(root.path());
  for (const std::string& folder : folders) {
    struct stat info {};
    if (::lstat(folder.c_str(), &info) != 0 || !S_ISDIR(info.st_mode) || info.st_uid != ::getuid()) continue;
    // Refused, the child cannot write there and says so in its own words (permission denied).
    (void)::lchown(folder.c_str(), plan.sandbox_uid, plan.sandbox_gid);
  }
}

child_plan make_plan(const process_options& options, const root_folder& root) {
  child_plan plan;
  plan.program = find_program(options.argv.front(), options.env);
  plan.argv_storage = options.argv;
  for (const auto& [name, value] : options.env) plan.env_storage.push_back(name + "=" + value);
  for (std::string& a : plan.argv_storage) plan.argv.push_back(a.data());
  plan.argv.push_back(nullptr);
  for (std::string& e : plan.env_storage) plan.envp.push_back(e.data());
  plan.envp.push_back(nullptr);
  plan.working_dir = options.working_dir.string();
  if (options.address_space_bytes) plan.address_space = options.address_space_bytes;
  if (options.file_size_bytes) plan.file_size = options.file_size_bytes;
  plan.sandbox = options.sandbox;
  // Not for processes that start the CUDA driver: cuInit names its threads by writing
  // /proc/self/task/<tid>/comm, and fails without it. On the H200 (driver 580.159, 2026-12-01) a runner
  // under each hardening alone graded vector_add; only the one with a read-only /proc found no device
  // ("OS call failed or operation not supported on this OS"). Their /proc is still their own PID
  // namespace's: no other process is in it.
  plan.read_only_proc = options.read_only_proc && !options.gpu_devices;
  plan.loopback = options.loopback;
  if (plan.sandbox) {
    for (const auto& path : options.hidden_paths) {
      struct stat info {};
      if (::stat(path.c_str(), &info) != 0) continue;
      plan.hidden.push_back({path.string(), S_ISDIR(info.st_mode)});
    }
    // A judge run as root gives its children an unprivileged user; any other judge gives them its own.
    plan.drop_user = ::getuid() == 0;
    plan.maps_by_parent = plan.drop_user;
    plan.sandbox_uid = plan.drop_user ? sandbox_user_id : ::getuid();
    plan.sandbox_gid = plan.drop_user ? sandbox_user_id : ::getgid();
    if (!root.path().empty()) {
      plan.private_root = true;
      plan.root = plan_private_root(options, root.path(), {plan.sandbox_uid, plan.sandbox_gid});
    }
    const std::string uid = std::to_string(plan.sandbox_uid), gid = std::to_string(plan.sandbox_gid);
    plan.outer_uid_map = "0 " + uid + " 1\n";
    plan.outer_gid_map = "0 " + gid + " 1\n";
    // Written by the judge, the map also holds the judge's root (as 1): the child builds its root as the
    // judge (it may read the judge's closed folders, and create mount points, which needs its own ids
    // mapped), then becomes 0 (the sandbox user) before the lock. The program, in the inner namespace
    // where only the sandbox user is mapped, keeps nothing of it.
    plan.parent_uid_map = plan.outer_uid_map + "1 0 1\n";
    plan.parent_gid_map = plan.outer_gid_map + "1 0 1\n";
    plan.judge_uid_map = "0 " + std::to_string(::getuid()) + " 1\n";
    plan.judge_gid_map = "0 " + std::to_string(::getgid()) + " 1\n";
    // The program sees itself by its uid outside (the sandbox user's, or the judge's).
    plan.inner_uid_map = uid + " 0 1\n";
    plan.inner_gid_map = gid + " 0 1\n";
  }
  return plan;
}

std::vector<child_report> read_reports(int fd) {
  std::vector<child_report> reports;
  child_report r;
  std::size_t got = 0;
  for (;;) {
    ssize_t n = ::read(fd, reinterpret_cast<char*>(&r) + got, sizeof r - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break; // end of file: exec succeeded (or the child died)
    got += static_cast<std::size_t>(n);
    if (got == sizeof r) {
      reports.push_back(r);
      got = 0;
    }
  }
  return reports;
}

/// The layers of a child from what its start reported. The cgroup is the caller's business.
sandbox_layers layers_of(const std::string& namespaces_refused, int clone_error, const std::string& root_refused) {
  sandbox_layers layers;
  if (!namespaces_refused.empty()) {
    for (sandbox_layer layer : all_sandbox_layers)
      if (layer != sandbox_layer::cgroup) layers.set_missing(layer, namespaces_refused);
    return layers;
  }
  if (clone_error)
    layers.set_missing(sandbox_layer::pid_namespace, std::string("clone: ") + std::strerror(clone_error));
  if (!root_refused.empty()) layers.set_missing(sandbox_layer::private_root, root_refused);
  return layers;
}

/// Why the private root could not be built, from the child's report.
std::string root_failure(const child_plan& plan, const child_report& r) {
  std::string where;
  if (r.index < 0)
    where = "mounting its tmpfs";
  else if (static_cast<std::size_t>(r.index) >= plan.root.steps.size())
    where = "pivot_root";
  else {
    const mount_step& s = plan.root.steps[static_cast<std::size_t>(r.index)];
    const char* verb = s.what == mount_step::kind::symlink      ? "linking "
                       : s.what == mount_step::kind::file         ? "writing "
                       : s.what == mount_step::kind::remount_ro ? "making read-only "
                       : s.what == mount_step::kind::cover      ? "covering "
                                                                : "mounting ";
    where = verb + (s.shown.empty() ? std::string("/") : s.shown);
  }
  return where + ": " + std::strerror(r.error);
}

} // namespace

spawned_child spawn_child(const process_options& options) {
  if (options.argv.empty()) throw std::invalid_argument("spawn_child: empty argv");
  root_folder root;
  std::string no_root_folder;
  if (options.sandbox && !root.create())
    no_root_folder = std::string("creating its mount point: ") + std::strerror(errno);
  child_plan plan = make_plan(options, root);
  if (plan.drop_user) hand_to_sandbox_user(options, root, plan);
  std::string no_cgroup;
  std::unique_ptr<cgroup_leaf> cgroup;
  if (options.sandbox && (options.memory_bytes || options.max_pids > 0))
    cgroup = cgroup_leaf::create(options.memory_bytes, options.max_pids, &no_cgroup);
  else
    no_cgroup = "no limits were asked for";
  pipe_pair in = make_pipe(), out = make_pipe(), err = make_pipe(), status = make_pipe(), exit_report = make_pipe();
  pipe_pair go;
  if (cgroup || plan.maps_by_parent) go = make_pipe();
  plan.go_fd = go.read.get();
  pipe_pair result;
  if (options.result_channel) result = make_pipe();
  plan.fds[0] = in.read.get();
  plan.fds[1] = out.write.get();
  plan.fds[2] = err.write.get();
  plan.fds[3] = result.write.get();
  if (options.result_channel) plan.fds[4] = options.shared_fd;
  plan.status_fd = status.write.get();
  plan.exit_report_fd = exit_report.write.get();

  // New namespaces from the start, PID namespace included (unshare cannot move the caller itself into
  // one); a raw clone behaves like fork. Where the system refuses, a plain fork, and the child tries the
  // other namespaces by unshare as before.
  long pid = -1;
  int clone_error = 0;
  if (options.sandbox) {
    pid = ::syscall(SYS_clone, CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWNET | SIGCHLD, 0, 0, 0, 0);
    if (pid == 0) run_init(plan);
    if (pid < 0) clone_error = errno;
  }
  if (pid < 0 && !plan.root.scratch.empty()) {
    // Without an init there is no one to copy the scratch tmpfs out: the folder is bound as it is.
    process_options bound = options;
    bound.scratch_bytes = 0;
    plan.root = plan_private_root(bound, root.path(), {plan.sandbox_uid, plan.sandbox_gid});
  }
  const bool pid_namespace = pid > 0;
  if (!pid_namespace) {
    pid = ::fork();
    if (pid < 0)
      throw std::system_error(errno, std::generic_category(), "cannot start " + options.argv.front() + ": fork");
    if (pid == 0) run_child(plan);
  }

  // Also here, so that the group exists before the judge could ever signal it.
  ::setpgid(static_cast<pid_t>(pid), static_cast<pid_t>(pid));
  if (cgroup && !cgroup->add(static_cast<int>(pid), &no_cgroup)) cgroup.reset();
  if (go.write.get() >= 0) {
    // The outer maps of a child that becomes the sandbox user: setgroups stays allowed, so that the
    // child can leave the judge's supplementary groups.
    const bool mapped = !pid_namespace || !plan.maps_by_parent || write_child_maps(static_cast<int>(pid), plan);
    const char byte = mapped ? go_mapped : go_unmapped;
    ssize_t ignored = ::write(go.write.get(), &byte, 1);
    (void)ignored;
  }
  go.write.reset(); // the child goes on, in its cgroup or (refused) without one
  go.read.reset();
  in.read.reset();
  out.write.reset();
  err.write.reset();
  result.write.reset();
  status.write.reset();
  exit_report.write.reset();

  spawned_child child;
  child.pid = static_cast<int>(pid);
  std::string namespaces_refused, root_refused = no_root_folder;
  for (const child_report& r : read_reports(status.read.get())) {
    if (r.kind == 's') child.sandboxed = true;
    if (r.kind == 'n' && r.failed != step::none)
      namespaces_refused = std::string(step_name(r.failed)) + ": " + std::strerror(r.error);
    if (r.kind == 'r') root_refused = root_failure(plan, r);
    if (r.kind == 'e') {
      int ignored;
      while (::waitpid(static_cast<pid_t>(pid), &ignored, 0) < 0 && errno == EINTR) {
      }
      std::string what = "cannot start " + plan.program;
      if (r.failed == step::chdir)
        what += " in " + plan.working_dir;
      else if (r.failed != step::exec)
        what += std::string(" (") + step_name(r.failed) + ")";
      throw std::system_error(r.error, std::generic_category(), what);
    }
  }
  if (options.sandbox) {
    if (!child.sandboxed && namespaces_refused.empty())
      namespaces_refused = clone_error ? std::string("clone: ") + std::strerror(clone_error) : "unknown failure";
    child.sandbox_note = namespaces_refused;
    child.layers = layers_of(namespaces_refused, clone_error, root_refused);
    if (!cgroup) child.layers.set_missing(sandbox_layer::cgroup, no_cgroup);
  }
  child.cgroup = std::move(cgroup);
  if (pid_namespace) child.exit_report_fd = exit_report.read.release();

  set_nonblocking(in.write.get());
  set_nonblocking(out.read.get());
  set_nonblocking(err.read.get());
  if (result.read.get() >= 0) set_nonblocking(result.read.get());
  if (child.exit_report_fd >= 0) set_nonblocking(child.exit_report_fd);
  child.stdin_fd = in.write.release();
  child.stdout_fd = out.read.release();
  child.stderr_fd = err.read.release();
  child.result_fd = result.read.release();
  return child;
}

} // namespace judge::detail
