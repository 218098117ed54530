#include "cgroup.hpp"

#include "file_input.hpp"
#include "kernel_file.hpp"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
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

/// Whether `cgroup` has the memory and pids controllers to give its children (an unreadable list: no).
bool offers_memory_and_pids(const std::string& cgroup) {
  std::error_code unreadable;
  const std::string controllers = read_file(cgroup + "/cgroup.controllers", unreadable).value_or("");
  return has_word(controllers, "memory") && has_word(controllers, "pids");
}

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

/// The folder under which children get their leaves (<own cgroup>/judge-<pid>), set up once.
struct judge_cgroup {
  std::string parent; ///< empty when unavailable
  std::string why;
};

judge_cgroup set_up() {
  judge_cgroup c;
  const std::string own = own_cgroup(&c.why);
  if (own.empty()) return c;
  if (!offers_memory_and_pids(own)) {
    c.why = "the memory and pids controllers are not delegated to the judge's cgroup " + own;
    return c;
  }
  if (::access((own + "/cgroup.procs").c_str(), W_OK) != 0 || ::access(own.c_str(), W_OK) != 0) {
    c.why = "the judge's cgroup " + own + " is not delegated to it (not writable)";
    return c;
  }
  const std::string parent = own + "/judge-" + std::to_string(::getpid());
  const std::string leaf = parent + "/judge";
  if ((::mkdir(parent.c_str(), 0755) != 0 && errno != EEXIST) ||
      (::mkdir(leaf.c_str(), 0755) != 0 && errno != EEXIST)) {
    c.why = system_error_text("creating " + leaf);
    return c;
  }
  // A cgroup with processes cannot hand controllers to its children: the judge leaves for its own leaf
  // first. Its old cgroup may already hand them down (a delegated unit); if not, enable them there.
  if (!write_kernel_file((leaf + "/cgroup.procs").c_str(), std::to_string(::getpid()))) {
    c.why = system_error_text("moving the judge into " + leaf);
    return c;
  }
  if (!offers_memory_and_pids(parent)) {
    if (!write_kernel_file((own + "/cgroup.subtree_control").c_str(), "+memory +pids")) {
      c.why = system_error_text("enabling memory and pids in " + own + "/cgroup.subtree_control");
      return c;
    }
  }
  if (!write_kernel_file((parent + "/cgroup.subtree_control").c_str(), "+memory +pids")) {
    c.why = system_error_text("enabling memory and pids in " + parent + "/cgroup.subtree_control");
    return c;
  }
  c.parent = parent;
  return c;
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
