// The runner's system-call filter (seccomp-bpf through libseccomp), installed after the harness has
// initialised CUDA, CUPTI and its channels and before the learner's object is loaded, so that nothing
// the learner's code runs (static constructors included) can start processes, signal or trace other
// processes, open sockets, create files outside the scratch folder, make memory executable, take over
// the judge's channels, control a terminal or loosen the filter. The rules judge each call, never the
// instruction that makes it: a `syscall` in the learner's own code is judged as one in libc's.
// Everything else stays allowed: the CUDA driver keeps working. A denied call stops the runner at once:
// a SIGSYS handler writes one "denied" answer (common/wire.hpp) naming the call and the rule to the
// result channel and exits with `syscall_denied_exit_code`. A call denied while SIGSYS is blocked
// (posix_spawn blocks every signal) ends the runner by SIGSYS instead, without a report: the kernel
// cannot run a blocked handler. The denied set, and why each entry is safe for the CUDA driver, is the
// table in syscall_filter.cpp.
#pragma once

#include <vector>

namespace judge_harness {

/// The runner's exit status after a denied system call.
constexpr int syscall_denied_exit_code = 4;

struct syscall_filter_config {
  /// The harness's channel fds and the scratch dir fd: no close/dup2/dup3 onto them, no ioctl on them.
  /// `scratch_dirfd` and `report_fd` are protected whether or not they are listed here.
  std::vector<int> protected_fds;
  /// The only dirfd openat(O_CREAT) (and the other *at calls that make or remove names) may use; -1:
  /// no new files at all.
  int scratch_dirfd = -1;
  /// Where the SIGSYS handler writes the "denied" answer line.
  int report_fd = -1;
};

/// Installs the filter on every thread of the process (the CUDA driver's threads included) and the
/// SIGSYS handler that reports a denied call; sets no_new_privs. Once per process: a second call
/// throws. Throws std::runtime_error with the reason when the filter cannot be installed.
void install_syscall_filter(const syscall_filter_config& config);

} // namespace judge_harness
