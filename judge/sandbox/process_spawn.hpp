// Starting a child process: PATH lookup, fork, the sandbox, file descriptors, exec. The running child is
// child_process's business (process.cpp); this is only the way in.
#pragma once

#include "process.hpp"

#include <string>

namespace judge::detail {

struct spawned_child {
  int pid = -1; ///< also the process group id
  /// The judge's ends of the pipes: non-blocking and close-on-exec; result_fd is -1 without a result
  /// channel.
  int stdin_fd = -1, stdout_fd = -1, stderr_fd = -1, result_fd = -1;
  bool sandboxed = false;
  std::string sandbox_note; ///< why not sandboxed, when the sandbox was asked for
};

/// Starts the child described by `options` in its own process group. Throws std::system_error
/// ("cannot start /x/y: No such file or directory") when it cannot be started; the failed child is
/// reaped first.
spawned_child spawn_child(const process_options& options);

} // namespace judge::detail
