#include "harness/runner/syscall_filter.hpp"

#include "common/wire_json.hpp"

#include <asm/termbits.h> // struct termios2, which TCSETS2's number encodes the size of
#include <fcntl.h>
#include <linux/kd.h>
#include <linux/vt.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/shm.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace judge_harness {
namespace {

// ---------------------------------------------------------------------------------------------------
// The rules. Default: allow. Learner code shares the process with the harness and the CUDA driver, so
// the filter denies only what neither of them needs once CUDA, CUPTI and the channels are up, and what
// would let learner code act outside its call of solve():
//
//  * no new processes: fork, vfork, clone without CLONE_THREAD or with a namespace flag (the driver
//    and the runtime start threads only: clone with CLONE_THREAD); clone3 answers ENOSYS instead (its
//    flags sit in a struct the filter cannot read; glibc's pthread_create then falls back to clone).
//  * no other programs: execve, execveat (the driver execs nvidia-modprobe only in cuInit, before).
//  * no access to other processes: ptrace, process_vm_readv/writev, pidfd_open/getfd, kcmp,
//    process_madvise, process_mrelease.
//  * no signals to other processes: kill, tgkill, rt_sigqueueinfo, rt_tgsigqueueinfo to any pid but
//    the runner's own (abort() and pthread_kill() signal the runner itself); tkill and
//    pidfd_send_signal always (tkill names a thread of any process).
//  * no new sessions or process groups: setsid, setpgid (a process that outlives its grading).
//  * no sockets: socket, socketpair, connect, bind, listen, accept, accept4 (MPS and the persistence
//    daemon are reached in cuInit, before).
//  * the judge's channels stay the judge's: no close, dup2 or dup3 onto a protected fd, and no ioctl
//    on one but TCGETS, the isatty() that stdio makes before it first writes to a character device (a
//    runner tried by hand with its channel on a terminal); the harness makes no other on its pipes and
//    its scratch folder. close_range always (it closes ranges; nothing after start-up needs it). Duplicating a channel (dup, fcntl F_DUPFD) stays
//    allowed: the copy says no more than learner code can already write on the channel itself.
//  * no terminal control: the ioctl requests that type into a terminal (TIOCSTI, TIOCLINUX's paste,
//    a console key's string), change its line discipline, modes, size, foreground group, controlling
//    process or console, stop its output, throw away its input, or signal or hang up its processes,
//    on any fd. A runner keeps the judge's controlling terminal (it leaves the process group, not the
//    session), and where the system refuses the sandbox it sees the host's /dev/tty: TIOCSTI there
//    would type a command into the shell that started the judge. Denied by request number, since the
//    fd may be any: the driver's ioctls on /dev/nvidia* (type 'F', nvidia-uvm's small numbers) and the
//    terminal reads libc makes (TCGETS for isatty, TIOCGWINSZ, FIONREAD, FIONBIO) are none of these.
//  * no new files outside the scratch folder: open/openat with O_CREAT or O_TMPFILE unless openat's
//    dirfd is the scratch folder's; creat; the other calls that make, rename or remove names (mkdir,
//    unlink, rename, link, symlink, mknod, rmdir, truncate, chmod, chown and their *at forms with a
//    dirfd other than the scratch folder's). openat2 answers ENOSYS (its flags sit in a struct; glibc
//    does not use it). The driver opens /dev/nvidia* O_RDWR without O_CREAT, which stays allowed.
//    The dirfd check does not confine absolute or "../" paths: the sandbox's read-only root does.
//  * no executable memory of the runner's own making: mprotect/pkey_mprotect adding PROT_EXEC, mmap
//    of anonymous memory with PROT_EXEC, mmap with PROT_WRITE|PROT_EXEC, shmat with SHM_EXEC,
//    memfd_create and memfd_secret. dlopen maps code from files, PROT_READ|PROT_EXEC, which stays
//    allowed (the object inspection refuses TEXTREL and executable stacks, the two cases in which the
//    loader would mprotect code).
//  * no namespaces or mounts: unshare, setns, mount, umount2, pivot_root, chroot, and the new mount
//    API (inside the sandbox's user namespace the runner holds these capabilities).
//  * the filter stays as it is: seccomp, prctl(PR_SET_SECCOMP), rt_sigaction installing a SIGSYS
//    handler; libseccomp sets no_new_privs.
//  * no system calls of another architecture: a 32-bit (int $0x80) or x32 call is denied as a whole
//    (the rules above are in the 64-bit numbering).
//  * no kernel facilities a solution does not need: bpf, perf_event_open (CUPTI's activity API, which
//    the timer uses, does not), userfaultfd, io_uring_*, keyctl, add_key, request_key, personality
//    other than the query.
//  * no system administration: module, kexec, reboot, swap, acct, iopl/ioperm.

constexpr const char* rule_processes = "no new processes (threads are fine)";
constexpr const char* rule_programs = "no running other programs";
constexpr const char* rule_other_processes = "no access to other processes";
constexpr const char* rule_signals = "no signals to other processes";
constexpr const char* rule_sessions = "no new sessions or process groups";
constexpr const char* rule_sockets = "no sockets or network";
constexpr const char* rule_channels = "no closing or replacing the judge's channels";
// ioctl has one rule for both of its checks: the SIGSYS handler knows only the call's number.
constexpr const char* rule_ioctl = "no terminal control (typing into a terminal, its line discipline or modes) and "
                                   "no requests on the judge's channels";
constexpr const char* rule_files = "no new, renamed or removed files outside the scratch folder";
constexpr const char* rule_exec_memory = "no making memory executable";
constexpr const char* rule_namespaces = "no namespaces, mounts or root changes";
constexpr const char* rule_filter = "no changes to the judge's system-call filter";
constexpr const char* rule_kernel = "no kernel facilities a solution does not need";
constexpr const char* rule_admin = "no system administration";
constexpr const char* rule_architecture = "no system calls of another architecture (int $0x80, x32)";

using condition = scmp_arg_cmp;
/// One libseccomp rule: all its conditions hold (none: always).
using conditions = std::vector<condition>;

struct denied_call {
  const char* name;             ///< the system call, as libseccomp names it
  const char* rule;             ///< one rule per call: the SIGSYS handler knows only the call's number
  std::vector<conditions> when; ///< denied when any of these holds; empty: always
};

condition make(unsigned arg, scmp_compare op, std::uint64_t a, std::uint64_t b = 0) {
  condition c{};
  c.arg = arg;
  c.op = op;
  c.datum_a = a;
  c.datum_b = b;
  return c;
}
/// All bits of `flags` set in argument `arg`.
condition has(unsigned arg, std::uint64_t flags) { return make(arg, SCMP_CMP_MASKED_EQ, flags, flags); }
/// No bit of `flags` set in argument `arg`.
condition lacks(unsigned arg, std::uint64_t flags) { return make(arg, SCMP_CMP_MASKED_EQ, flags, 0); }
/// Argument `arg`, an int or unsigned int, is `value`: the kernel reads only its low 32 bits, so the
/// high ones must not let a value slip past.
condition is(unsigned arg, int value) {
  return make(arg, SCMP_CMP_MASKED_EQ, 0xffffffffu, static_cast<std::uint32_t>(value));
}
/// Argument `arg` is not `value` in any of its 64 bits (a value the kernel would read as `value` but
/// with other high bits is denied too: safe).
condition is_not(unsigned arg, std::int64_t value) {
  return make(arg, SCMP_CMP_NE, static_cast<std::uint64_t>(static_cast<std::uint32_t>(value)));
}

/// O_TMPFILE without the O_DIRECTORY it includes.
constexpr std::uint64_t tmpfile_bit = O_TMPFILE & ~O_DIRECTORY;
/// The terminal and console requests denied on any fd (asm-generic/ioctls.h, linux/kd.h, linux/vt.h).
/// Their type byte is 'T' (0x54), 'K' (0x4b) or 'V' (0x56), so none equals a request of the GPU
/// driver's, whose type is 'F' (0x46), or one of nvidia-uvm's, which are plain numbers (1 to a few
/// hundred, and 0x30000001).
constexpr unsigned long terminal_requests[] = {
    TIOCSTI,     TIOCLINUX,   TIOCSETD,    TIOCCONS,   TIOCSCTTY,    TIOCNOTTY,    TIOCSPGRP,
    TIOCSIG,     TIOCVHANGUP, TIOCEXCL,    TCSETS,     TCSETSW,      TCSETSF,      TCSETA,
    TCSETAW,     TCSETAF,     TCSETS2,     TCSETSW2,   TCSETSF2,     TIOCSWINSZ,   TIOCSLCKTRMIOS,
    TCXONC,      TCFLSH,      KDSKBSENT,   KDSKBENT,   KDSETKEYCODE, KDSKBMODE,    KDSETMODE,
    KDSIGACCEPT, KDFONTOP,    VT_ACTIVATE, VT_SETMODE, VT_RELDISP,   VT_LOCKSWITCH};
constexpr std::uint64_t namespace_flags[] = {CLONE_NEWNS,   CLONE_NEWCGROUP, CLONE_NEWUTS, CLONE_NEWIPC,
                                             CLONE_NEWUSER, CLONE_NEWPID,    CLONE_NEWNET};

std::vector<denied_call> denied_calls(const syscall_filter_config& config, const std::vector<int>& protected_fds,
                                      pid_t self) {
  std::vector<conditions> clone_when = {{lacks(0, CLONE_THREAD)}};
  for (std::uint64_t flag : namespace_flags) clone_when.push_back({has(0, flag)});

  std::vector<conditions> dup_when, close_when, ioctl_when;
  for (int fd : protected_fds) {
    dup_when.push_back({is(1, fd)});
    close_when.push_back({is(0, fd)});
    ioctl_when.push_back({is(0, fd), is_not(1, TCGETS)});
  }
  // The kernel reads the request as an unsigned int: `is` compares its low 32 bits.
  for (unsigned long request : terminal_requests) ioctl_when.push_back({is(1, static_cast<int>(request))});

  const int scratch = config.scratch_dirfd;
  const std::vector<conditions> other_process = {{is_not(0, self)}};
  const std::vector<conditions> dirfd0_not_scratch = {{is_not(0, scratch)}};
  const std::vector<conditions> always;

  std::vector<denied_call> calls = {
      {"fork", rule_processes, always},
      {"vfork", rule_processes, always},
      {"clone", rule_processes, clone_when},
      {"execve", rule_programs, always},
      {"execveat", rule_programs, always},
      {"ptrace", rule_other_processes, always},
      {"process_vm_readv", rule_other_processes, always},
      {"process_vm_writev", rule_other_processes, always},
      {"pidfd_open", rule_other_processes, always},
      {"pidfd_getfd", rule_other_processes, always},
      {"kcmp", rule_other_processes, always},
      {"process_madvise", rule_other_processes, always},
      {"process_mrelease", rule_other_processes, always},
      {"kill", rule_signals, other_process},
      {"tgkill", rule_signals, other_process},
      {"rt_sigqueueinfo", rule_signals, other_process},
      {"rt_tgsigqueueinfo", rule_signals, other_process},
      {"tkill", rule_signals, always},
      {"pidfd_send_signal", rule_signals, always},
      {"setsid", rule_sessions, always},
      {"setpgid", rule_sessions, always},
      {"socket", rule_sockets, always},
      {"socketpair", rule_sockets, always},
      {"connect", rule_sockets, always},
      {"bind", rule_sockets, always},
      {"listen", rule_sockets, always},
      {"accept", rule_sockets, always},
      {"accept4", rule_sockets, always},
      {"close", rule_channels, close_when},
      {"dup2", rule_channels, dup_when},
      {"dup3", rule_channels, dup_when},
      {"close_range", rule_channels, always},
      {"ioctl", rule_ioctl, ioctl_when},
      {"open", rule_files, {{has(1, O_CREAT)}, {has(1, tmpfile_bit)}}},
      {"openat", rule_files, {{has(2, O_CREAT), is_not(0, scratch)}, {has(2, tmpfile_bit), is_not(0, scratch)}}},
      {"creat", rule_files, always},
      {"mkdir", rule_files, always},
      {"rmdir", rule_files, always},
      {"unlink", rule_files, always},
      {"rename", rule_files, always},
      {"link", rule_files, always},
      {"symlink", rule_files, always},
      {"mknod", rule_files, always},
      {"truncate", rule_files, always},
      {"chmod", rule_files, always},
      {"chown", rule_files, always},
      {"lchown", rule_files, always},
      {"mkdirat", rule_files, dirfd0_not_scratch},
      {"unlinkat", rule_files, dirfd0_not_scratch},
      {"mknodat", rule_files, dirfd0_not_scratch},
      {"fchmodat", rule_files, dirfd0_not_scratch},
      {"fchownat", rule_files, dirfd0_not_scratch},
      {"symlinkat", rule_files, {{is_not(1, scratch)}}},
      {"renameat", rule_files, {{is_not(0, scratch)}, {is_not(2, scratch)}}},
      {"renameat2", rule_files, {{is_not(0, scratch)}, {is_not(2, scratch)}}},
      {"linkat", rule_files, {{is_not(0, scratch)}, {is_not(2, scratch)}}},
      {"mprotect", rule_exec_memory, {{has(2, PROT_EXEC)}}},
      {"pkey_mprotect", rule_exec_memory, {{has(2, PROT_EXEC)}}},
      {"mmap", rule_exec_memory, {{has(2, PROT_EXEC), has(3, MAP_ANONYMOUS)}, {has(2, PROT_WRITE | PROT_EXEC)}}},
      {"shmat", rule_exec_memory, {{has(2, SHM_EXEC)}}},
      {"memfd_create", rule_exec_memory, always},
      {"memfd_secret", rule_exec_memory, always},
      {"unshare", rule_namespaces, always},
      {"setns", rule_namespaces, always},
      {"mount", rule_namespaces, always},
      {"umount2", rule_namespaces, always},
      {"pivot_root", rule_namespaces, always},
      {"chroot", rule_namespaces, always},
      {"fsopen", rule_namespaces, always},
      {"fsconfig", rule_namespaces, always},
      {"fsmount", rule_namespaces, always},
      {"fspick", rule_namespaces, always},
      {"move_mount", rule_namespaces, always},
      {"open_tree", rule_namespaces, always},
      {"mount_setattr", rule_namespaces, always},
      {"seccomp", rule_filter, always},
      {"prctl", rule_filter, {{is(0, PR_SET_SECCOMP)}}},
      {"rt_sigaction", rule_filter, {{is(0, SIGSYS), make(1, SCMP_CMP_NE, 0)}}},
      {"bpf", rule_kernel, always},
      {"perf_event_open", rule_kernel, always},
      {"userfaultfd", rule_kernel, always},
      {"io_uring_setup", rule_kernel, always},
      {"io_uring_enter", rule_kernel, always},
      {"io_uring_register", rule_kernel, always},
      {"keyctl", rule_kernel, always},
      {"add_key", rule_kernel, always},
      {"request_key", rule_kernel, always},
      {"personality", rule_kernel, {{make(0, SCMP_CMP_NE, 0xffffffffu)}}},
      {"init_module", rule_admin, always},
      {"finit_module", rule_admin, always},
      {"delete_module", rule_admin, always},
      {"kexec_load", rule_admin, always},
      {"kexec_file_load", rule_admin, always},
      {"reboot", rule_admin, always},
      {"swapon", rule_admin, always},
      {"swapoff", rule_admin, always},
      {"acct", rule_admin, always},
      {"iopl", rule_admin, always},
      {"ioperm", rule_admin, always},
  };
  return calls;
}

/// Calls answered ENOSYS rather than denied: their arguments sit in structs the filter cannot read,
/// and glibc falls back to a call it can (clone3 -> clone; openat2 is not used by glibc).
constexpr const char* enosys_calls[] = {"clone3", "openat2"};

// ---------------------------------------------------------------------------------------------------
// The SIGSYS handler: async-signal-safe, so every line it may write is made at install time.

struct line_text {
  const char* data = nullptr;
  std::size_t size = 0;
};

constexpr int max_syscall_number = 1024;
line_text g_lines[max_syscall_number]; ///< by system-call number; empty for calls not denied
line_text g_other_architecture;        ///< a 32-bit or x32 call
line_text g_unknown;                   ///< a SIGSYS the filter did not raise
int g_report_fd = -1;
std::uint32_t g_native_architecture = 0;
std::atomic<bool> g_installed{false};

void write_all(int fd, const line_text& line) {
  const char* p = line.data;
  std::size_t left = line.size;
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return; // the judge is gone; the exit status still says what happened
    p += n;
    left -= static_cast<std::size_t>(n);
  }
}

/// si_code of a SIGSYS that seccomp raised (SYS_SECCOMP of the kernel's siginfo.h, which glibc's
/// headers do not export).
constexpr int sys_seccomp = 1;

void on_denied(int, siginfo_t* info, void*) {
  const line_text* line = &g_unknown;
  if (info->si_code == sys_seccomp) {
    // An x32 call comes with the native architecture and a number above the native ones.
    if (info->si_arch != g_native_architecture || info->si_syscall < 0 || info->si_syscall >= max_syscall_number)
      line = &g_other_architecture;
    else if (g_lines[info->si_syscall].data)
      line = &g_lines[info->si_syscall];
  }
  write_all(g_report_fd, *line);
  _exit(syscall_denied_exit_code);
}

/// Keeps the answer lines for the handler; made once, never changed after, never freed.
std::vector<std::string>& line_storage() {
  static std::vector<std::string>* storage = new std::vector<std::string>();
  return *storage;
}

line_text kept_line(const std::string& call, const std::string& rule) {
  std::vector<std::string>& storage = line_storage();
  storage.push_back(judge_wire::encode(judge_wire::denied_answer{call, rule}) + "\n");
  return {storage.back().data(), storage.back().size()};
}

// ---------------------------------------------------------------------------------------------------

[[noreturn]] void fail(const std::string& what, int negative_errno) {
  throw std::runtime_error("cannot install the system-call filter: " + what + ": " + std::strerror(-negative_errno));
}

struct filter_release {
  void operator()(scmp_filter_ctx ctx) const { seccomp_release(ctx); }
};
using filter_handle = std::unique_ptr<void, filter_release>;

void add_rule(scmp_filter_ctx ctx, std::uint32_t action, int number, const char* name, const conditions& when) {
  const int rc = seccomp_rule_add_array(ctx, action, number, static_cast<unsigned>(when.size()), when.data());
  if (rc < 0) fail(std::string("the rule for ") + name, rc);
}

void install_handler(int report_fd) {
  g_report_fd = report_fd;
  struct sigaction action {};
  action.sa_sigaction = on_denied;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  if (sigaction(SIGSYS, &action, nullptr) != 0) fail("the SIGSYS handler", -errno);
  sigset_t sys;
  sigemptyset(&sys);
  sigaddset(&sys, SIGSYS);
  pthread_sigmask(SIG_UNBLOCK, &sys, nullptr);
}

} // namespace

void install_syscall_filter(const syscall_filter_config& config) {
  if (config.report_fd < 0 || fcntl(config.report_fd, F_GETFD) < 0)
    throw std::runtime_error("cannot install the system-call filter: its report fd " +
                             std::to_string(config.report_fd) + " is not open");
  if (g_installed.exchange(true)) throw std::runtime_error("the system-call filter is already installed");

  std::vector<int> protected_fds = config.protected_fds;
  protected_fds.push_back(config.report_fd);
  if (config.scratch_dirfd >= 0) protected_fds.push_back(config.scratch_dirfd);

  filter_handle ctx(seccomp_init(SCMP_ACT_ALLOW));
  if (!ctx) throw std::runtime_error("cannot install the system-call filter: seccomp_init failed");
  g_native_architecture = seccomp_arch_native();
  // Every thread, the CUDA driver's included: learner code may run on any of them.
  if (const int rc = seccomp_attr_set(ctx.get(), SCMP_FLTATR_CTL_TSYNC, 1); rc < 0) fail("thread sync", rc);
  if (const int rc = seccomp_attr_set(ctx.get(), SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_TRAP); rc < 0)
    fail("the action for other architectures", rc);
  // A binary tree over the call numbers: the driver's hot calls (ioctl, futex, poll), none of them in
  // the table, pass in a few comparisons rather than one per denied call. Only a speed-up: a libseccomp
  // without it keeps the linear filter.
  seccomp_attr_set(ctx.get(), SCMP_FLTATR_CTL_OPTIMIZE, 2);

  for (const denied_call& call : denied_calls(config, protected_fds, getpid())) {
    const int number = seccomp_syscall_resolve_name(call.name);
    if (number < 0) continue; // not a system call of this architecture (fork on arm64)
    if (number < max_syscall_number) g_lines[number] = kept_line(call.name, call.rule);
    if (call.when.empty()) add_rule(ctx.get(), SCMP_ACT_TRAP, number, call.name, {});
    for (const conditions& when : call.when) add_rule(ctx.get(), SCMP_ACT_TRAP, number, call.name, when);
  }
  for (const char* name : enosys_calls) {
    const int number = seccomp_syscall_resolve_name(name);
    if (number >= 0) add_rule(ctx.get(), SCMP_ACT_ERRNO(ENOSYS), number, name, {});
  }
  g_other_architecture = kept_line("a 32-bit or x32 system call", rule_architecture);
  g_unknown = kept_line("a system call", "no system calls the judge forbids");

  install_handler(config.report_fd);
  if (const int rc = seccomp_load(ctx.get()); rc < 0) fail("seccomp_load", rc);
}

} // namespace judge_harness
