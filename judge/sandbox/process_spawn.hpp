// Starting a child process: PATH lookup, clone or fork, the sandbox, file descriptors, exec. The running child is
// child_process's business (process.cpp); this is only the way in.
#pragma once

#include "judge/sandbox/cgroup.hpp"
#include "judge/sandbox/process.hpp"

#include <memory>

#include <string>

namespace judge::detail {

struct spawned_child {
  int pid = -1; ///< also the process group id
  /// The judge's ends of the pipes: non-blocking and close-on-exec; result_fd is -1 without a result
  /// channel.
  int stdin_fd = -1, stdout_fd = -1, stderr_fd = -1, result_fd = -1;
  /// With a PID namespace: the judge's end of the pipe on which the namespace's init reports the
  /// program's wait status (non-blocking, close-on-exec); -1 otherwise.
  int exit_report_fd = -1;
  bool sandboxed = false;
  std::string sandbox_note;            ///< why not sandboxed, when the sandbox was asked for
  sandbox_layers layers;               ///< with options.sandbox: what was in force
  std::unique_ptr<cgroup_leaf> cgroup; ///< the child's cgroup, where it has one
};

/// Starts the child described by `options` in its own process group (with the sandbox: the init of its
/// own PID namespace, whose only child is the program). Throws std::system_error
/// ("cannot start /x/y: No such file or directory") when it cannot be started; the failed child is
/// reaped first.
spawned_child spawn_child(const process_options& options);

} // namespace judge::detail
