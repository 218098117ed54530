// Tests of harness/runner/syscall_filter.cpp. The filter is installed once per process and for good,
// so every test runs in a forked child that installs it and then makes one call: a denied call must end
// the child with exit code 4 after one "denied" answer naming the call and its rule; an allowed one must
// work as it does without the filter. Every call is made the way learner code would make it (glibc or
// raw syscall()), and with arguments that do no harm should the filter let it through.
#include "catch.hpp"
#include "temp_folder.hpp"
#include "text_match.hpp"

#include "harness/runner/syscall_filter.hpp"
#include "common/wire_json.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <linux/kd.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <linux/seccomp.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <thread>
#include <vector>

using judge_test::contains;
namespace fs = std::filesystem;

namespace {

/// What a child sees: the fds the filter protects, and folders inside and outside the scratch one.
struct child_fixture {
  int report_fd = -1;
  int channel_fd = -1; ///< stands in for the request channel: protected
  int scratch_fd = -1;
  int other_dir_fd = -1; ///< a folder that is not the scratch folder
  std::string other_dir; ///< its path
};

/// Makes one call; "" when it did what it should, else what went wrong.
using call_body = std::function<std::string(const child_fixture&)>;

struct child_result {
  int exit_code = -1; ///< -1 when a signal ended it
  int signal = 0;
  std::string report; ///< everything the child wrote on its report fd
};

/// Folders for one child: removed at the end.
struct temp_folders {
  judge_test::temp_folder folder{"syscall-filter"};
  fs::path root = folder.path();
  temp_folders() {
    fs::create_directory(root / "scratch");
    fs::create_directory(root / "other");
  }
};

[[noreturn]] void report_and_exit(int fd, const std::string& line, int code) {
  const std::string text = line + "\n";
  if (::write(fd, text.data(), text.size()) < 0) _exit(20);
  _exit(code);
}

/// Forks a child that installs the filter (after `before`, which runs unfiltered) and runs `body`.
/// The child says "allowed" when `body` returned "" and the "failed: ..." line otherwise.
child_result run_filtered(const call_body& body, const call_body& before = nullptr) {
  temp_folders folders;
  int report[2];
  REQUIRE(pipe(report) == 0);
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    ::close(report[0]);
    child_fixture f;
    f.report_fd = report[1];
    f.channel_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    f.scratch_fd = ::open((folders.root / "scratch").c_str(), O_DIRECTORY | O_RDONLY | O_CLOEXEC);
    f.other_dir = folders.root / "other";
    f.other_dir_fd = ::open(f.other_dir.c_str(), O_DIRECTORY | O_RDONLY | O_CLOEXEC);
    if (f.channel_fd < 0 || f.scratch_fd < 0 || f.other_dir_fd < 0) report_and_exit(f.report_fd, "no fixture", 10);
    // Catch2's handlers would report the child's own crash as a failure of the test; the parent decides.
    for (int sig : {SIGSEGV, SIGILL, SIGFPE, SIGBUS, SIGABRT}) signal(sig, SIG_DFL);
    if (before) before(f);
    try {
      judge_harness::install_syscall_filter({{f.channel_fd}, f.scratch_fd, f.report_fd});
    } catch (const std::exception& e) {
      report_and_exit(f.report_fd, std::string("install failed: ") + e.what(), 11);
    }
    const std::string failure = body(f);
    report_and_exit(f.report_fd, failure.empty() ? "allowed" : "failed: " + failure, 0);
  }
  ::close(report[1]);
  child_result result;
  char buffer[4096];
  ssize_t n;
  while ((n = ::read(report[0], buffer, sizeof buffer)) > 0) result.report.append(buffer, static_cast<std::size_t>(n));
  ::close(report[0]);
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

/// The denied answer the child sent; fails the test when it sent something else.
judge_wire::denied_answer denied_answer_of(const child_result& r) {
  CAPTURE(r.report, r.exit_code, r.signal);
  REQUIRE(r.exit_code == judge_harness::syscall_denied_exit_code);
  REQUIRE(!r.report.empty());
  REQUIRE(r.report.back() == '\n');
  REQUIRE(r.report.find('\n') == r.report.size() - 1); // one line
  const judge_wire::answer answer = judge_wire::decode_answer(r.report.substr(0, r.report.size() - 1));
  REQUIRE(std::holds_alternative<judge_wire::denied_answer>(answer));
  return std::get<judge_wire::denied_answer>(answer);
}

std::string errno_text(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

/// A call that should be denied: `call` and a word of `rule` must be in its answer.
struct denied_case {
  std::string what;
  call_body body;
  std::string call;
  std::string rule;
  /// The call is made with every signal blocked (posix_spawn does that): the kernel then ends the
  /// runner by SIGSYS before the handler can report, and the judge says so from the exit status.
  bool sigsys_blocked = false;
};

const std::string other_architecture = "a 32-bit or x32 system call";
constexpr long high_bit = 1L << 32; // the kernel reads an fd as 32 bits; the filter must too

std::vector<denied_case> denied_cases() {
  std::vector<denied_case> cases = {
      {"the fork system call",
       [](const child_fixture&) {
         syscall(SYS_fork);
         return std::string("returned");
       },
       "fork", "no new processes"},
      {"glibc's fork()",
       [](const child_fixture&) {
         fork();
         return std::string("returned");
       },
       "clone", "no new processes"},
      {"system(), which spawns a shell with every signal blocked",
       [](const child_fixture&) {
         std::system("true");
         return std::string("returned");
       },
       "clone", "no new processes", true},
      {"fork with SIGSYS blocked",
       [](const child_fixture&) {
         sigset_t sys;
         sigemptyset(&sys);
         sigaddset(&sys, SIGSYS);
         pthread_sigmask(SIG_BLOCK, &sys, nullptr);
         syscall(SYS_fork);
         return std::string("returned");
       },
       "fork", "no new processes", true},
      {"clone without CLONE_THREAD",
       [](const child_fixture&) {
         syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
         return std::string("returned");
       },
       "clone", "no new processes"},
      {"execve",
       [](const child_fixture&) {
         char* const argv[] = {const_cast<char*>("/bin/true"), nullptr};
         execve("/bin/true", argv, nullptr);
         return errno_text("execve");
       },
       "execve", "no running other programs"},
      {"ptrace",
       [](const child_fixture&) {
         ptrace(PTRACE_TRACEME, 0, nullptr, nullptr);
         return std::string("returned");
       },
       "ptrace", "no access to other processes"},
      {"process_vm_readv of the parent",
       [](const child_fixture&) {
         char byte = 0;
         iovec local{&byte, 1}, remote{&byte, 1};
         process_vm_readv(getppid(), &local, 1, &remote, 1, 0);
         return std::string("returned");
       },
       "process_vm_readv", "no access to other processes"},
      {"pidfd_open of the parent",
       [](const child_fixture&) {
         syscall(SYS_pidfd_open, getppid(), 0);
         return std::string("returned");
       },
       "pidfd_open", "no access to other processes"},
      {"kill of the parent",
       [](const child_fixture&) {
         kill(getppid(), 0);
         return std::string("returned");
       },
       "kill", "no signals to other processes"},
      {"kill of the process group",
       [](const child_fixture&) {
         kill(0, 0);
         return std::string("returned");
       },
       "kill", "no signals to other processes"},
      {"kill of every process",
       [](const child_fixture&) {
         kill(-1, 0);
         return std::string("returned");
       },
       "kill", "no signals to other processes"},
      {"tgkill of the parent",
       [](const child_fixture&) {
         syscall(SYS_tgkill, getppid(), getppid(), 0);
         return std::string("returned");
       },
       "tgkill", "no signals to other processes"},
      {"tkill",
       [](const child_fixture&) {
         syscall(SYS_tkill, getpid(), 0);
         return std::string("returned");
       },
       "tkill", "no signals to other processes"},
      {"setsid",
       [](const child_fixture&) {
         setsid();
         return std::string("returned");
       },
       "setsid", "no new sessions"},
      {"setpgid",
       [](const child_fixture&) {
         setpgid(0, 0);
         return std::string("returned");
       },
       "setpgid", "no new sessions"},
      {"socket",
       [](const child_fixture&) {
         socket(AF_UNIX, SOCK_STREAM, 0);
         return std::string("returned");
       },
       "socket", "no sockets"},
      {"socketpair",
       [](const child_fixture&) {
         int fds[2];
         socketpair(AF_UNIX, SOCK_STREAM, 0, fds);
         return std::string("returned");
       },
       "socketpair", "no sockets"},
      {"dup2 onto a channel",
       [](const child_fixture& f) {
         dup2(f.other_dir_fd, f.channel_fd);
         return std::string("returned");
       },
       "dup2", "the judge's channels"},
      {"dup2 onto the report fd",
       [](const child_fixture& f) {
         dup2(f.other_dir_fd, f.report_fd);
         return std::string("returned");
       },
       "dup2", "the judge's channels"},
      {"dup3 onto the scratch folder's fd",
       [](const child_fixture& f) {
         dup3(f.other_dir_fd, f.scratch_fd, 0);
         return std::string("returned");
       },
       "dup3", "the judge's channels"},
      {"close of a channel",
       [](const child_fixture& f) {
         close(f.channel_fd);
         return std::string("returned");
       },
       "close", "the judge's channels"},
      {"close of a channel with high bits set in the fd",
       [](const child_fixture& f) {
         syscall(SYS_close, high_bit | f.channel_fd);
         return std::string("returned");
       },
       "close", "the judge's channels"},
      {"ioctl TIOCSTI, which types into a terminal, on a descriptor that is no terminal",
       [](const child_fixture& f) {
         const char c = '\n';
         ioctl(f.other_dir_fd, TIOCSTI, &c);
         return std::string("returned");
       },
       "ioctl", "no terminal control"},
      {"ioctl TIOCSTI on a real terminal, where the system has pseudo-terminals",
       [](const child_fixture& f) {
         // The child's own pseudo-terminal: let through, the character would land in it and nowhere else.
         int terminal = f.other_dir_fd;
         const int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
         if (master >= 0 && grantpt(master) == 0 && unlockpt(master) == 0 && ptsname(master))
           terminal = open(ptsname(master), O_RDWR | O_NOCTTY | O_CLOEXEC);
         const char c = '\n';
         ioctl(terminal, TIOCSTI, &c);
         return std::string("returned");
       },
       "ioctl", "no terminal control"},
      {"ioctl TIOCSTI with high bits set in the request",
       [](const child_fixture& f) {
         const char c = '\n';
         syscall(SYS_ioctl, f.other_dir_fd, high_bit | TIOCSTI, &c);
         return std::string("returned");
       },
       "ioctl", "no terminal control"},
      {"ioctl TIOCLINUX, whose paste types into a console",
       [](const child_fixture& f) {
         char subcode = 3; // TIOCL_PASTESEL
         ioctl(f.other_dir_fd, TIOCLINUX, &subcode);
         return std::string("returned");
       },
       "ioctl", "no terminal control"},
      {"ioctl TIOCSETD, which changes a terminal's line discipline",
       [](const child_fixture& f) {
         int discipline = 0;
         ioctl(f.other_dir_fd, TIOCSETD, &discipline);
         return std::string("returned");
       },
       "ioctl", "no terminal control"},
      {"ioctl TCSETS, which changes a terminal's modes (tcsetattr)",
       [](const child_fixture& f) {
         char modes[64] = {};
         ioctl(f.other_dir_fd, TCSETS, modes);
         return std::string("returned");
       },
       "ioctl", "no terminal control"},
      {"ioctl KDSKBSENT, which sets the string a console key types",
       [](const child_fixture& f) {
         char entry[512] = {};
         ioctl(f.other_dir_fd, KDSKBSENT, entry);
         return std::string("returned");
       },
       "ioctl", "no terminal control"},
      {"ioctl on a channel, even a request that only reads",
       [](const child_fixture& f) {
         int pending = 0;
         ioctl(f.channel_fd, FIONREAD, &pending);
         return std::string("returned");
       },
       "ioctl", "the judge's channels"},
      {"ioctl on the report fd",
       [](const child_fixture& f) {
         int on = 1;
         ioctl(f.report_fd, FIONBIO, &on);
         return std::string("returned");
       },
       "ioctl", "the judge's channels"},
      {"ioctl on the scratch folder's fd with high bits set in the fd",
       [](const child_fixture& f) {
         int pending = 0;
         syscall(SYS_ioctl, high_bit | f.scratch_fd, FIONREAD, &pending);
         return std::string("returned");
       },
       "ioctl", "the judge's channels"},
      {"close_range",
       [](const child_fixture&) {
         syscall(SYS_close_range, 1000, 2000, 0);
         return std::string("returned");
       },
       "close_range", "the judge's channels"},
      {"open with O_CREAT",
       [](const child_fixture& f) {
         syscall(SYS_open, (f.other_dir + "/x").c_str(), O_WRONLY | O_CREAT, 0600);
         return std::string("returned");
       },
       "open", "outside the scratch folder"},
      {"openat with O_CREAT at the working folder",
       [](const child_fixture& f) {
         openat(AT_FDCWD, (f.other_dir + "/x").c_str(), O_WRONLY | O_CREAT, 0600);
         return std::string("returned");
       },
       "openat", "outside the scratch folder"},
      {"openat with O_CREAT in another folder",
       [](const child_fixture& f) {
         openat(f.other_dir_fd, "x", O_WRONLY | O_CREAT, 0600);
         return std::string("returned");
       },
       "openat", "outside the scratch folder"},
      {"openat with O_TMPFILE in another folder",
       [](const child_fixture& f) {
         openat(f.other_dir_fd, ".", O_WRONLY | O_TMPFILE, 0600);
         return std::string("returned");
       },
       "openat", "outside the scratch folder"},
      {"fopen for writing",
       [](const child_fixture& f) {
         std::fopen((f.other_dir + "/x").c_str(), "w");
         return std::string("returned");
       },
       "openat", "outside the scratch folder"},
      {"unlinkat in another folder",
       [](const child_fixture& f) {
         unlinkat(f.other_dir_fd, "x", 0);
         return std::string("returned");
       },
       "unlinkat", "outside the scratch folder"},
      {"renameat out of the scratch folder",
       [](const child_fixture& f) {
         renameat(f.scratch_fd, "a", f.other_dir_fd, "b");
         return std::string("returned");
       },
       "renameat", "outside the scratch folder"},
      {"mkdirat in another folder",
       [](const child_fixture& f) {
         mkdirat(f.other_dir_fd, "d", 0700);
         return std::string("returned");
       },
       "mkdirat", "outside the scratch folder"},
      {"mprotect adding PROT_EXEC",
       [](const child_fixture&) {
         void* page = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
         if (page == MAP_FAILED) return errno_text("mmap");
         mprotect(page, 4096, PROT_READ | PROT_EXEC);
         return std::string("returned");
       },
       "mprotect", "no making memory executable"},
      {"mmap of anonymous executable memory",
       [](const child_fixture&) {
         mmap(nullptr, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
         return std::string("returned");
       },
       "mmap", "no making memory executable"},
      {"mmap of writable executable memory from a file",
       [](const child_fixture&) {
         const int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
         mmap(nullptr, 4096, PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE, fd, 0);
         return std::string("returned");
       },
       "mmap", "no making memory executable"},
      {"memfd_create",
       [](const child_fixture&) {
         syscall(SYS_memfd_create, "code", 0);
         return std::string("returned");
       },
       "memfd_create", "no making memory executable"},
      {"unshare",
       [](const child_fixture&) {
         unshare(CLONE_NEWUSER);
         return std::string("returned");
       },
       "unshare", "no namespaces"},
      {"mount",
       [](const child_fixture&) {
         mount("none", "/tmp", "tmpfs", 0, nullptr);
         return std::string("returned");
       },
       "mount", "no namespaces"},
      {"chroot",
       [](const child_fixture&) {
         chroot("/tmp");
         return std::string("returned");
       },
       "chroot", "no namespaces"},
      {"seccomp",
       [](const child_fixture&) {
         syscall(SYS_seccomp, SECCOMP_SET_MODE_STRICT, 0, nullptr);
         return std::string("returned");
       },
       "seccomp", "system-call filter"},
      {"prctl(PR_SET_SECCOMP)",
       [](const child_fixture&) {
         prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT);
         return std::string("returned");
       },
       "prctl", "system-call filter"},
      {"a new SIGSYS handler",
       [](const child_fixture&) {
         signal(SIGSYS, SIG_IGN);
         return std::string("returned");
       },
       "rt_sigaction", "system-call filter"},
      {"bpf",
       [](const child_fixture&) {
         syscall(SYS_bpf, BPF_PROG_LOAD, nullptr, 0);
         return std::string("returned");
       },
       "bpf", "kernel facilities"},
      {"perf_event_open",
       [](const child_fixture&) {
         perf_event_attr attr{};
         attr.size = sizeof attr;
         syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
         return std::string("returned");
       },
       "perf_event_open", "kernel facilities"},
      {"userfaultfd",
       [](const child_fixture&) {
         syscall(SYS_userfaultfd, 0);
         return std::string("returned");
       },
       "userfaultfd", "kernel facilities"},
      {"io_uring_setup",
       [](const child_fixture&) {
         syscall(SYS_io_uring_setup, 1, nullptr);
         return std::string("returned");
       },
       "io_uring_setup", "kernel facilities"},
      {"personality",
       [](const child_fixture&) {
         personality(PER_LINUX32);
         return std::string("returned");
       },
       "personality", "kernel facilities"},
  };
#if defined(__x86_64__)
  cases.push_back({"a 32-bit system call through int $0x80",
                   [](const child_fixture&) {
                     long result = 20; // getpid in the 32-bit numbering
                     asm volatile("int $0x80" : "+a"(result) : : "memory");
                     return std::string("returned");
                   },
                   other_architecture, "another architecture"});
  cases.push_back({"an x32 system call",
                   [](const child_fixture&) {
                     syscall(0x40000000L | SYS_getpid);
                     return std::string("returned");
                   },
                   other_architecture, "another architecture"});
#endif
  return cases;
}

/// A call that must keep working under the filter.
struct allowed_case {
  std::string what;
  call_body body;
};

std::vector<allowed_case> allowed_cases() {
  return {
      {"starting and joining a thread",
       [](const child_fixture&) {
         std::atomic<int> ran{0};
         std::thread t([&ran] { ran = 1; });
         t.join();
         return ran == 1 ? std::string() : std::string("the thread did not run");
       }},
      {"clone3, answered ENOSYS so that glibc falls back to clone",
       [](const child_fixture&) {
         const long r = syscall(SYS_clone3, nullptr, 0);
         return r == -1 && errno == ENOSYS ? std::string() : errno_text("clone3 did not answer ENOSYS");
       }},
      {"openat2, answered ENOSYS",
       [](const child_fixture&) {
         const long r = syscall(SYS_openat2, AT_FDCWD, "/", nullptr, 0);
         return r == -1 && errno == ENOSYS ? std::string() : errno_text("openat2 did not answer ENOSYS");
       }},
      {"reading a file",
       [](const child_fixture&) {
         std::FILE* file = std::fopen("/proc/self/status", "r");
         if (!file) return errno_text("fopen");
         char line[256];
         const bool read = std::fgets(line, sizeof line, file) != nullptr;
         std::fclose(file);
         return read ? std::string() : std::string("nothing read");
       }},
      {"opening a device read-write, as the CUDA driver opens /dev/nvidia*",
       [](const child_fixture&) {
         const int fd = open("/dev/null", O_RDWR | O_CLOEXEC);
         if (fd < 0) return errno_text("open");
         close(fd);
         return std::string();
       }},
      {"writing, reading back and removing a file in the scratch folder",
       [](const child_fixture& f) {
         const int fd = openat(f.scratch_fd, "C.bin", O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
         if (fd < 0) return errno_text("openat");
         const bool wrote = write(fd, "1234", 4) == 4;
         close(fd);
         if (!wrote) return errno_text("write");
         struct stat st {};
         if (fstatat(f.scratch_fd, "C.bin", &st, 0) != 0 || st.st_size != 4) return std::string("not written");
         return unlinkat(f.scratch_fd, "C.bin", 0) == 0 ? std::string() : errno_text("unlinkat");
       }},
      {"mapping a file executable, as dlopen does",
       [](const child_fixture&) {
         const int fd = open(JUDGE_LOADABLE_LIBRARY, O_RDONLY | O_CLOEXEC);
         if (fd < 0) return errno_text("open");
         void* code = mmap(nullptr, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
         close(fd);
         return code != MAP_FAILED ? std::string() : errno_text("mmap");
       }},
      {"dlopen of a shared object and a call into it",
       [](const child_fixture&) {
         void* library = dlopen(JUDGE_LOADABLE_LIBRARY, RTLD_NOW | RTLD_LOCAL);
         if (!library) return std::string("dlopen: ") + dlerror();
         using answer_fn = int (*)();
         const auto answer = reinterpret_cast<answer_fn>(dlsym(library, "syscall_filter_test_answer"));
         if (!answer) return std::string("dlsym: ") + dlerror();
         return answer() == 42 ? std::string() : std::string("wrong answer");
       }},
      {"anonymous memory made read-only",
       [](const child_fixture&) {
         void* page = mmap(nullptr, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
         if (page == MAP_FAILED) return errno_text("mmap");
         return mprotect(page, 4096, PROT_READ) == 0 ? std::string() : errno_text("mprotect");
       }},
      {"signals to the runner itself and its own threads, and handlers for them",
       [](const child_fixture&) {
         if (kill(getpid(), 0) != 0) return errno_text("kill");
         if (pthread_kill(pthread_self(), 0) != 0) return std::string("pthread_kill failed");
         static std::atomic<int> caught{0};
         if (signal(SIGUSR1, [](int) { caught = 1; }) == SIG_ERR) return errno_text("signal");
         raise(SIGUSR1);
         return caught == 1 ? std::string() : std::string("SIGUSR1 was not caught");
       }},
      {"asking for the SIGSYS handler without changing it",
       [](const child_fixture&) {
         struct sigaction old {};
         return sigaction(SIGSYS, nullptr, &old) == 0 ? std::string() : errno_text("sigaction");
       }},
      {"closing and replacing fds that are not the judge's",
       [](const child_fixture& f) {
         const int fd = dup(f.other_dir_fd);
         if (fd < 0) return errno_text("dup");
         if (dup2(f.other_dir_fd, fd) != fd) return errno_text("dup2");
         return close(fd) == 0 ? std::string() : errno_text("close");
       }},
      {"isatty of a channel, which stdio asks before it writes to a character device",
       [](const child_fixture& f) {
         return isatty(f.channel_fd) == 0 && errno == ENOTTY ? std::string() : errno_text("isatty");
       }},
      {"isatty and other requests on descriptors that are not the judge's",
       [](const child_fixture& f) {
         // What stdio asks of fd 0 (/dev/null in a runner) before buffering, and of a pipe of its own.
         if (isatty(f.other_dir_fd) != 0 || errno != ENOTTY) return errno_text("isatty did not answer ENOTTY");
         int fds[2];
         if (pipe(fds) != 0) return errno_text("pipe");
         int pending = -1, on = 1;
         if (ioctl(fds[0], FIONREAD, &pending) != 0 || pending != 0) return errno_text("FIONREAD");
         if (ioctl(fds[0], FIONBIO, &on) != 0) return errno_text("FIONBIO");
         return std::string();
       }},
      {"requests numbered as the GPU driver numbers them, on a device",
       [](const child_fixture&) {
         // /dev/nvidia*'s requests are type 'F' with a size; nvidia-uvm's are plain numbers. /dev/null
         // answers ENOTTY: the filter let them through.
         const int fd = open("/dev/null", O_RDWR | O_CLOEXEC);
         if (fd < 0) return errno_text("open");
         char params[64] = {};
         for (unsigned long request : {static_cast<unsigned long>(_IOWR('F', 0x2a, char[32])),
                                       static_cast<unsigned long>(_IOWR('F', 0xd2, char[48])), 0x30000001ul, 1ul, 75ul})
           if (ioctl(fd, request, params) != -1 || errno != ENOTTY) return errno_text("a driver-like request");
         close(fd);
         return std::string();
       }},
      {"reading a real terminal's modes and size, where the system has pseudo-terminals",
       [](const child_fixture&) {
         const int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
         if (master < 0) return std::string(); // no /dev/ptmx here: nothing to try
         if (grantpt(master) != 0 || unlockpt(master) != 0) return errno_text("unlockpt");
         const char* name = ptsname(master);
         const int terminal = name ? open(name, O_RDWR | O_NOCTTY | O_CLOEXEC) : -1;
         if (terminal < 0) return errno_text("opening the terminal");
         termios modes{};
         winsize size{};
         if (isatty(terminal) != 1) return errno_text("isatty");
         if (tcgetattr(terminal, &modes) != 0) return errno_text("tcgetattr");
         if (ioctl(terminal, TIOCGWINSZ, &size) != 0) return errno_text("TIOCGWINSZ");
         close(terminal);
         close(master);
         return std::string();
       }},
      {"asking for the personality",
       [](const child_fixture&) { return personality(0xffffffff) != -1 ? std::string() : errno_text("personality"); }},
  };
}

} // namespace

TEST_CASE("every denied call ends the runner with exit code 4 after one answer naming the call and its rule",
          "[syscall_filter]") {
  const denied_case c = GENERATE(from_range(denied_cases()));
  CAPTURE(c.what);
  const child_result r = run_filtered(c.body);
  if (c.sigsys_blocked) {
    CAPTURE(r.report, r.exit_code);
    CHECK(r.signal == SIGSYS);
    CHECK(r.report.empty());
    return;
  }
  if (c.call == other_architecture && r.signal == SIGSEGV && r.report.empty()) {
    WARN("this kernel has no 32-bit system calls (int $0x80 faults): nothing for the filter to deny");
    return;
  }
  const judge_wire::denied_answer denied = denied_answer_of(r);
  CHECK(denied.call == c.call);
  CHECK(contains(denied.rule, c.rule));
}

TEST_CASE("what the harness, the CUDA driver and honest solutions do keeps working under the filter",
          "[syscall_filter]") {
  const allowed_case c = GENERATE(from_range(allowed_cases()));
  CAPTURE(c.what);
  const child_result r = run_filtered(c.body);
  CAPTURE(r.report, r.signal);
  CHECK(r.exit_code == 0);
  CHECK(r.report == "allowed\n");
}

TEST_CASE("threads started before the filter are filtered too", "[syscall_filter]") {
  // The CUDA driver's threads exist before the filter; learner code may run on one (a callback).
  static std::atomic<int> stage{0};
  static std::thread* early = nullptr;
  const auto before = [](const child_fixture&) {
    early = new std::thread([] {
      while (stage.load() == 0) std::this_thread::yield();
      setsid();
      stage = 2;
    });
    return std::string();
  };
  const auto body = [](const child_fixture&) {
    stage = 1;
    early->join();
    return std::string("the early thread's setsid() returned");
  };
  const judge_wire::denied_answer denied = denied_answer_of(run_filtered(body, before));
  CHECK(denied.call == "setsid");
}

TEST_CASE("the filter is installed once and refuses a report fd that is not open", "[syscall_filter]") {
  const child_result twice = run_filtered([](const child_fixture& f) {
    try {
      judge_harness::install_syscall_filter({{}, f.scratch_fd, f.report_fd});
    } catch (const std::runtime_error& e) {
      return contains(e.what(), "already installed") ? std::string() : std::string(e.what());
    }
    return std::string("a second install was accepted");
  });
  CHECK(twice.report == "allowed\n");

  // Refused before anything is installed, so this process stays unfiltered.
  try {
    judge_harness::install_syscall_filter({{}, -1, 1000});
    FAIL("a closed report fd was accepted");
  } catch (const std::runtime_error& e) {
    CHECK(contains(e.what(), "report fd 1000 is not open"));
  }
}
