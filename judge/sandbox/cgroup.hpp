// cgroup v2 for sandboxed children, where the system delegates a cgroup to the judge (a systemd unit
// or user session with Delegate=yes, a container given its own cgroup namespace, or a cgroup root made
// for the judge: docs/deploy.md). The judge moves itself into a leaf of its own cgroup
// (<its cgroup>/judge-<pid>/judge), so that the memory and pids controllers can be enabled below
// <its cgroup>/judge-<pid>, and gives every child a sibling leaf with memory.max, memory.swap.max = 0
// and pids.max. At the child's end the leaf is killed (cgroup.kill) and removed.
//
// cgroup v2 enables controllers for the children of a cgroup only while it holds no process (its
// root excepted): the judge's cgroup must hold nothing but the judge, or the kernel answers "Device or
// resource busy". A judge that shares its cgroup (with the shell that started it, a container's
// other processes) does not move them: it names them, and runs without cgroup limits. Where cgroup v2
// is not delegated, nothing is changed and the reason is kept.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace judge {

class cgroup_leaf {
public:
  /// A new leaf with these limits (0: none), or nullptr with *why set ("cgroup v2 is not mounted").
  static std::unique_ptr<cgroup_leaf> create(std::size_t memory_bytes, int max_pids, std::string* why);
  cgroup_leaf(const cgroup_leaf&) = delete;
  cgroup_leaf& operator=(const cgroup_leaf&) = delete;
  /// Kills what is left in the leaf and removes it.
  ~cgroup_leaf();

  /// Moves process `pid` (and so its future children) into the leaf; false with *why set if refused.
  bool add(int pid, std::string* why);
  /// SIGKILL to every process in the leaf at once (cgroup.kill, Linux 5.14); without it, nothing.
  void kill();
  const std::string& path() const { return m_path; }

private:
  explicit cgroup_leaf(std::string path) : m_path(std::move(path)) {}
  std::string m_path;
};

/// Why the judge cannot give children cgroups here; "" when it can. Sets the judge's cgroup up the first
/// time it is asked (moving the judge into its leaf).
std::string cgroup_unavailable_reason();

/// Where the judge's children get their leaves: a folder with the controllers enabled below it.
struct judge_cgroup {
  std::string parent; ///< <own>/judge-<pid>; empty when unavailable
  std::string why;    ///< why it is unavailable
};

namespace detail {
/// The set-up, for the cgroup `own` (the judge's) and these controllers: checks that `own` offers them
/// and that nothing but the judge lives in it (unless it is the hierarchy's root), moves the calling
/// process into <own>/judge-<pid>/judge, and enables the controllers in <own> and <own>/judge-<pid>.
/// Leaves everything as it was and says why when a check fails.
judge_cgroup claim_subtree(const std::string& own, const std::vector<std::string>& controllers);
} // namespace detail

} // namespace judge
