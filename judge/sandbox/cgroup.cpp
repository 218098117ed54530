#include "judge/sandbox/cgroup.hpp"

#include "judge/base/file_input.hpp"
#include "judge/sandbox/kernel_file.hpp"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iterator>
#include <mutex>
#include <sstream>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace judge {

namespace {

bool has_word(const std::string& text, const std::string& word) {
  std::istringstream in(text);
  std::string w;
  while (in >> w)
    if (w == word) return true;
  return false;
}

/// Whether `cgroup` offers every one of `controllers` to its children (an unreadable list: no).
bool offers(const std::string& cgroup, const std::vector<std::string>& controllers) {
  std::error_code unreadable;
  const std::string offered = read_file(cgroup + "/cgroup.controllers", unreadable).value_or("");
  for (const std::string& c : controllers)
    if (!has_word(offered, c)) return false;
  return true;
}

/// Whether `cgroup`'s children have every one of `controllers` enabled already.
bool hands_down(const std::string& cgroup, const std::vector<std::string>& controllers) {
  std::error_code unreadable;
  const std::string enabled = read_file(cgroup + "/cgroup.subtree_control", unreadable).value_or("");
  for (const std::string& c : controllers)
    if (!has_word(enabled, c)) return false;
  return true;
}

/// "+memory +pids", what cgroup.subtree_control takes.
std::string enabling(const std::vector<std::string>& controllers) {
  std::string text;
  for (const std::string& c : controllers) text += (text.empty() ? "+" : " +") + c;
  return text;
}

/// "memory and pids", for messages.
std::string named(const std::vector<std::string>& controllers) {
  std::string text;
  for (std::size_t i = 0; i < controllers.size(); ++i)
    text += (i == 0 ? "" : i + 1 == controllers.size() ? " and " : ", ") + controllers[i];
  return text;
}

/// The processes in `cgroup` other than the calling one, as "123 (bash)", at most a few named.
/// Whether process `pid` is a child of the judge (its parent in /proc/<pid>/stat, after the command's
/// closing parenthesis).
bool is_judges_child(const std::string& pid) {
  std::ifstream stat("/proc/" + pid + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const std::size_t close = text.rfind(')');
  if (close == std::string::npos) return false;
  std::istringstream rest(text.substr(close + 1));
  std::string state;
  long parent = 0;
  rest >> state >> parent;
  return parent == static_cast<long>(::getpid());
}

/// The judge's own children in `cgroup` (a GPU probe started before the first sandboxed child): they
/// move with the judge.
std::vector<std::string> judges_children(const std::string& cgroup) {
  std::vector<std::string> children;
  std::ifstream procs(cgroup + "/cgroup.procs");
  for (std::string pid; procs >> pid;)
    if (is_judges_child(pid)) children.push_back(pid);
  return children;
}

std::vector<std::string> other_processes(const std::string& cgroup) {
  std::vector<std::string> others;
  std::ifstream procs(cgroup + "/cgroup.procs");
  const std::string self = std::to_string(::getpid());
  for (std::string pid; procs >> pid;) {
    if (pid == self || is_judges_child(pid)) continue;
    std::ifstream comm("/proc/" + pid + "/comm");
    std::string name;
    std::getline(comm, name);
    others.push_back(pid + (name.empty() ? "" : " (" + name + ")"));
  }
  return others;
}

/// The root of a cgroup v2 hierarchy has no cgroup.type; every other cgroup has one. Only the real root
/// may hold processes and hand controllers down at once (a cgroup namespace's root is no real root).
bool is_hierarchy_root(const std::string& cgroup) { return ::access((cgroup + "/cgroup.type").c_str(), F_OK) != 0; }

std::string system_error_text(const std::string& what) { return what + ": " + std::strerror(errno); }

/// The judge's own cgroup v2 folder, from /proc/self/cgroup ("0::/path") and /proc/self/mountinfo.
std::string own_cgroup(std::string* why) {
  std::ifstream cgroups("/proc/self/cgroup");
  std::string line, path;
  bool found = false;
  while (std::getline(cgroups, line))
    if (line.rfind("0::", 0) == 0) {
      path = line.substr(3);
      found = true;
    }
  if (!found) {
    *why = "no cgroup v2 hierarchy (only cgroup v1)";
    return "";
  }
  std::ifstream mounts("/proc/self/mountinfo");
  std::string mount_point;
  while (std::getline(mounts, line)) {
    const std::size_t dash = line.find(" - ");
    if (dash == std::string::npos || line.compare(dash + 3, 8, "cgroup2 ") != 0) continue;
    std::istringstream fields(line.substr(0, dash));
    std::string id, parent, device, root, point;
    fields >> id >> parent >> device >> root >> point;
    // A cgroup namespace shows its own root as "/": the mount's root is then where the path starts.
    if (root == "/" || path.rfind(root, 0) == 0) {
      mount_point = point;
      if (root != "/") path = path.substr(root.size());
      break;
    }
  }
  if (mount_point.empty()) {
    *why = "cgroup v2 is not mounted";
    return "";
  }
  return mount_point + (path == "/" ? "" : path);
}

} // namespace

namespace detail {

judge_cgroup claim_subtree(const std::string& own, const std::vector<std::string>& controllers) {
  judge_cgroup c;
  if (!offers(own, controllers)) {
    c.why = "the " + named(controllers) + " controllers are not delegated to the judge's cgroup " + own +
            " (docs/deploy.md: a cgroup of its own)";
    return c;
  }
  if (::access((own + "/cgroup.procs").c_str(), W_OK) != 0 || ::access(own.c_str(), W_OK) != 0) {
    c.why = "the judge's cgroup " + own + " is not delegated to it (not writable)";
    return c;
  }
  // cgroup v2 hands controllers down only from a cgroup that holds no processes (the root excepted).
  // The judge leaves its cgroup for a leaf below it; whatever else lives there stays, and then the
  // controllers cannot be enabled: say who, rather than the kernel's "Device or resource busy".
  if (!hands_down(own, controllers) && !is_hierarchy_root(own)) {
    const std::vector<std::string> others = other_processes(own);
    if (!others.empty()) {
      std::string named;
      for (std::size_t i = 0; i < others.size() && i < 3; ++i) named += (i ? ", " : "") + others[i];
      if (others.size() > 3) named += ", ...";
      c.why = "the judge's cgroup " + own + " also holds " + std::to_string(others.size()) + " other process" +
              (others.size() == 1 ? "" : "es") + " (" + named +
              "), and cgroup v2 hands controllers down only from a cgroup without processes: start the judge "
              "alone in a cgroup of its own (docs/deploy.md)";
      return c;
    }
  }
  const std::string parent = own + "/judge-" + std::to_string(::getpid());
  const std::string leaf = parent + "/judge";
  if ((::mkdir(parent.c_str(), 0755) != 0 && errno != EEXIST) ||
      (::mkdir(leaf.c_str(), 0755) != 0 && errno != EEXIST)) {
    c.why = system_error_text("creating " + leaf);
    return c;
  }
  // The judge leaves its cgroup first, so that its cgroup holds no process when it enables the
  // controllers for its children (a delegated unit may enable them already).
  if (!write_kernel_file((leaf + "/cgroup.procs").c_str(), std::to_string(::getpid()))) {
    c.why = system_error_text("moving the judge into " + leaf);
    return c;
  }
  // A child that has ended meanwhile cannot be moved, and need not be.
  for (const std::string& child : judges_children(own)) write_kernel_file((leaf + "/cgroup.procs").c_str(), child);
  if (!hands_down(own, controllers) &&
      !write_kernel_file((own + "/cgroup.subtree_control").c_str(), enabling(controllers))) {
    c.why = system_error_text("enabling " + named(controllers) + " in " + own + "/cgroup.subtree_control");
    return c;
  }
  if (!write_kernel_file((parent + "/cgroup.subtree_control").c_str(), enabling(controllers))) {
    c.why = system_error_text("enabling " + named(controllers) + " in " + parent + "/cgroup.subtree_control");
    return c;
  }
  c.parent = parent;
  return c;
}

} // namespace detail

namespace {

judge_cgroup set_up() {
  judge_cgroup c;
  const std::string own = own_cgroup(&c.why);
  if (own.empty()) return c;
  return detail::claim_subtree(own, {"memory", "pids"});
}

const judge_cgroup& judge_cgroup_once() {
  static std::once_flag once;
  static judge_cgroup c;
  std::call_once(once, [] { c = set_up(); });
  return c;
}

} // namespace

std::string cgroup_unavailable_reason() { return judge_cgroup_once().why; }

std::unique_ptr<cgroup_leaf> cgroup_leaf::create(std::size_t memory_bytes, int max_pids, std::string* why) {
  const judge_cgroup& c = judge_cgroup_once();
  if (c.parent.empty()) {
    *why = c.why;
    return nullptr;
  }
  static std::atomic<unsigned> counter{0};
  const std::string path = c.parent + "/child-" + std::to_string(++counter);
  if (::mkdir(path.c_str(), 0755) != 0) {
    *why = system_error_text("creating " + path);
    return nullptr;
  }
  std::unique_ptr<cgroup_leaf> leaf(new cgroup_leaf(path));
  auto limit = [&](const char* file, const std::string& value, bool optional) {
    if (write_kernel_file((path + "/" + file).c_str(), value) || (optional && errno == ENOENT)) return true;
    *why = system_error_text(std::string("setting ") + file);
    return false;
  };
  // memory.swap.max exists only with swap accounting; without it there is no swap to limit either.
  if (memory_bytes &&
      (!limit("memory.max", std::to_string(memory_bytes), false) || !limit("memory.swap.max", "0", true)))
    return nullptr;
  if (max_pids > 0 && !limit("pids.max", std::to_string(max_pids), false)) return nullptr;
  return leaf;
}

bool cgroup_leaf::add(int pid, std::string* why) {
  if (write_kernel_file((m_path + "/cgroup.procs").c_str(), std::to_string(pid))) return true;
  *why = system_error_text("moving the child into " + m_path);
  return false;
}

void cgroup_leaf::kill() { write_kernel_file((m_path + "/cgroup.kill").c_str(), "1"); }

cgroup_leaf::~cgroup_leaf() {
  kill();
  // Killed processes leave the cgroup a moment after the signal: removal waits up to a second.
  for (int attempt = 0; attempt < 100; ++attempt) {
    if (::rmdir(m_path.c_str()) == 0 || errno == ENOENT) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

} // namespace judge
