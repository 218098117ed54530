// The sandboxed child's new root: a read-only tmpfs holding only the system's folders (read-only), an
// /etc of its own, the paths the judge names (read-only or writable), a size-capped /tmp, a fresh /proc,
// a minimal /dev and, for runners on a GPU, the NVIDIA device files and /sys (read-only). The judge's
// tree, the other solutions, the runner cache, the results, the secret, $HOME and the host's /etc
// (passwd, shadow, ssh keys, ...) are simply not there.
//
// Nothing writable is executable: /tmp, /dev/shm, /etc and the writable paths are mounted noexec (and
// nosuid, nodev), so code a child writes can be neither run nor mapped executable (mmap with PROT_EXEC
// of a file on a noexec mount fails). What it runs comes from the read-only binds only.
//
// Planned in the parent (which may allocate), built in the child after fork (which may not): the plan
// holds every path already joined with the new root's folder.
#pragma once

#include "judge/sandbox/process.hpp"

#include <string>
#include <vector>

namespace judge::detail {

/// One step of building the new root, in order: ancestors before descendants.
struct mount_step {
  enum class kind {
    tmpfs,      ///< a fresh tmpfs at target, with `source` as its mount data ("size=...,mode=...")
    bind,       ///< source (recursively) on target; read-only unless `writable`
    proc,       ///< a fresh /proc of the child's PID namespace
    symlink,    ///< target is a symbolic link whose text is `source` (/bin -> usr/bin)
    remount_ro, ///< the tmpfs at target becomes read-only, once everything below it is in place
    cover,      ///< a path to hide, if the binds made it visible: an empty tmpfs (folder) or /dev/null
    file,       ///< a new file at target whose contents are `source` (the synthetic /etc's files)
    mask,       ///< a judge's folder a system bind shows: an empty tmpfs there (writable until its seal)
    seal,       ///< the mask at target becomes read-only, once the named paths below it are bound
  };
  kind what = kind::bind;
  std::string source;
  std::string target;    ///< inside the new root
  std::string shown;     ///< the path as the child will see it, for messages
  bool is_dir = true;    ///< whether the mount point is a folder (else a file)
  bool writable = false; ///< for bind
  bool device = false;   ///< for bind: device nodes stay usable (no nodev)
  bool no_exec = false;  ///< for tmpfs and bind: nothing on it can be executed or mapped executable
};

/// Who the child is inside the sandbox, for the synthetic /etc/passwd and /etc/group.
struct sandbox_identity {
  unsigned uid = 0, gid = 0;
};

struct root_plan {
  std::string root; ///< the empty folder the new root is mounted on (in the judge's view)
  std::vector<mount_step> steps;
  /// With process_options::scratch_bytes: the working directory, resolved (the same path inside and
  /// outside), which is a size-capped tmpfs inside; empty when the folder is bound as it is.
  std::string scratch;
};

/// The folders of the system every program needs, bound read-only when they exist.
extern const char* const system_paths[];
/// Bound too where process_options::host_opt asks for it (runners, tools).
extern const char* const host_opt_path;
/// What the new /etc holds of the host's, read-only, when it exists: the loader's library search list
/// (the toolchain, the CUDA driver's libraries), the alternatives' links (cc, c++), the OS's name.
/// Everything else in it is written by the judge (etc_files).
extern const char* const host_etc_paths[];

/// The synthetic /etc's own files for a child that runs as `identity`: (name, contents).
std::vector<std::pair<std::string, std::string>> etc_files(const sandbox_identity& identity);

/// Plans the root for `options` on the empty folder `root`, for a child that runs as `identity`.
/// Paths that do not exist are left out.
root_plan plan_private_root(const process_options& options, const std::string& root,
                            const sandbox_identity& identity = {});

/// Builds the planned root and enters it (pivot_root); the child's working directory becomes "/".
/// Async-signal-safe. Returns 0, or the errno of the step that failed with *failed_step set to its
/// index; then the half-built root has been detached again and the old root is still in place.
int enter_private_root(const root_plan& plan, int* failed_step);

} // namespace judge::detail
