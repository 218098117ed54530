// Runs only where cgroup v2 with the memory and pids controllers is delegated to the judge (the test
// process); elsewhere each test says why it checks nothing.
#include "catch.hpp"

#include "judge/sandbox/cgroup.hpp"
#include "judge/sandbox/process.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <csignal>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace std::chrono_literals;

namespace {
std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool cgroups_here() {
  const std::string why = judge::cgroup_unavailable_reason();
  if (why.empty()) return true;
  WARN("no delegated cgroup v2 here (" << why << "); not checked");
  return false;
}
} // namespace

TEST_CASE("a cgroup leaf carries the limits it was made with and is removed at its end", "[sandbox][cgroup]") {
  if (!cgroups_here()) return;
  std::string why;
  std::string path;
  {
    auto leaf = judge::cgroup_leaf::create(std::size_t(64) << 20, 16, &why);
    REQUIRE(leaf);
    path = leaf->path();
    CHECK(read_file(path + "/memory.max") == std::to_string(std::size_t(64) << 20) + "\n");
    CHECK(read_file(path + "/pids.max") == "16\n");
  }
  CHECK_FALSE(std::filesystem::exists(path));
}

TEST_CASE("a sandboxed child runs in its own cgroup, whose pids.max stops a fork bomb", "[sandbox][cgroup]") {
  if (!cgroups_here()) return;
  judge::process_options options;
  options.argv = {"/bin/sh", "-c", "cat /proc/self/cgroup; for i in $(seq 40); do sleep 5 & done; wait"};
  options.env = judge::child_environment();
  options.sandbox = true;
  options.max_pids = 16;
  options.memory_bytes = std::size_t(256) << 20;
  judge::child_process child(options);
  CHECK(child.layers().on(judge::sandbox_layer::cgroup));
  child.wait(std::chrono::steady_clock::now() + 20s);
  CHECK(child.out().kept.find("/child-") != std::string::npos);
  CHECK(child.err().kept.find("fork") != std::string::npos); // "Resource temporarily unavailable"
}

namespace {

/// The cgroup v2 mount point, or "" (from /proc/self/mountinfo).
std::string cgroup2_mount() {
  std::ifstream mounts("/proc/self/mountinfo");
  for (std::string line; std::getline(mounts, line);) {
    const std::size_t dash = line.find(" - cgroup2 ");
    if (dash == std::string::npos) continue;
    std::istringstream fields(line.substr(0, dash));
    std::string id, parent, device, root, point;
    fields >> id >> parent >> device >> root >> point;
    if (root == "/") return point;
  }
  return "";
}

bool write(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text << std::flush;
  return bool(out);
}

/// In a child process (the test's own cgroup stays as it is): a cgroup made for the check below the
/// hierarchy's root, with `controller` handed down to it; 0 when every check held, 77 when the machine
/// cannot run it, else the number of the check that failed.
int claim_check(const std::string& controller) {
  const std::string mount = cgroup2_mount();
  if (mount.empty() || !std::ifstream(mount + "/cgroup.procs") ||
      read_file(mount + "/cgroup.controllers").find(controller) == std::string::npos)
    return 77;
  const bool enabled_here = read_file(mount + "/cgroup.subtree_control").find(controller) == std::string::npos;
  if (enabled_here && !write(mount + "/cgroup.subtree_control", "+" + controller)) return 77;
  const std::string own = mount + "/claim-test-" + std::to_string(::getpid());
  if (::mkdir(own.c_str(), 0755) != 0) return 77;
  const std::string self = std::to_string(::getpid());
  int failed = 0;
  // Shared with another process (the shell that started a judge): refused, naming it, nothing changed.
  // Not a child of the judge's (its children move with it): a grandchild whose parent has ended.
  int channel[2];
  if (::pipe(channel) != 0) return 77;
  const pid_t middle = ::fork();
  if (middle == 0) {
    const pid_t grandchild = ::fork();
    if (grandchild == 0) {
      ::pause();
      ::_exit(0);
    }
    (void)!::write(channel[1], &grandchild, sizeof grandchild);
    ::_exit(0);
  }
  pid_t other = -1;
  (void)!::read(channel[0], &other, sizeof other);
  ::waitpid(middle, nullptr, 0);
  ::close(channel[0]);
  ::close(channel[1]);
  // The judge's own child (a GPU probe still running) is no other process: it moves along.
  const pid_t own_child = ::fork();
  if (own_child == 0) {
    ::pause();
    ::_exit(0);
  }
  if (!write(own + "/cgroup.procs", std::to_string(other)) || !write(own + "/cgroup.procs", self) ||
      !write(own + "/cgroup.procs", std::to_string(own_child)))
    failed = 1;
  const judge::judge_cgroup shared = judge::detail::claim_subtree(own, {controller});
  if (!failed && (!shared.parent.empty() || shared.why.find("also holds 1 other process (" + std::to_string(other)) ==
                                                std::string::npos))
    failed = 2;
  if (!failed && std::filesystem::exists(own + "/judge-" + self)) failed = 3;
  ::kill(other, SIGKILL);
  // Not the test's to reap: it leaves the cgroup once its new parent has.
  for (int i = 0; i < 200 && read_file(own + "/cgroup.procs").find(std::to_string(other) + "\n") != std::string::npos;
       ++i)
    ::usleep(10000);
  // Alone: the judge moves into its leaf, then enables the controller in its cgroup and its subtree.
  const judge::judge_cgroup alone = judge::detail::claim_subtree(own, {controller});
  if (!failed && alone.parent != own + "/judge-" + self) failed = 4;
  if (!failed && read_file("/proc/self/cgroup").find("/claim-test-" + self + "/judge-" + self + "/judge\n") ==
                     std::string::npos)
    failed = 5;
  if (!failed && (read_file(own + "/cgroup.subtree_control").find(controller) == std::string::npos ||
                  read_file(alone.parent + "/cgroup.subtree_control").find(controller) == std::string::npos))
    failed = 6;
  if (!failed && read_file("/proc/" + std::to_string(own_child) + "/cgroup").find("/judge-" + self + "/judge\n") ==
                     std::string::npos)
    failed = 7;
  ::kill(own_child, SIGKILL);
  ::waitpid(own_child, nullptr, 0);
  write(mount + "/cgroup.procs", self);
  ::rmdir((own + "/judge-" + self + "/judge").c_str());
  ::rmdir((own + "/judge-" + self).c_str());
  ::rmdir(own.c_str());
  if (enabled_here) write(mount + "/cgroup.subtree_control", "-" + controller);
  return failed;
}

} // namespace

TEST_CASE("the judge takes a cgroup subtree only from a cgroup it is alone in, and names who else is there",
          "[sandbox][cgroup]") {
  // Any controller shows the rule; where the hierarchy offers memory and pids they are the ones used.
  const std::string mount = cgroup2_mount();
  const std::string offered = mount.empty() ? "" : read_file(mount + "/cgroup.controllers");
  const std::string controller = offered.find("pids") != std::string::npos      ? "pids"
                                 : offered.find("hugetlb") != std::string::npos ? "hugetlb"
                                                                                : "memory";
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) ::_exit(claim_check(controller));
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFEXITED(status));
  if (WEXITSTATUS(status) == 77) {
    WARN("no writable cgroup v2 root with a controller to hand down here; not checked");
    return;
  }
  CAPTURE(controller);
  CHECK(WEXITSTATUS(status) == 0);
}
