// What a sandboxed child sees and may do: its own processes only, the paths it is given, a minimal
// /dev, and nothing that outlives it. Where this machine refuses namespaces, each test says so and
// checks nothing (the refusal itself is checked by the last test).
#include "catch.hpp"
#include "temp_folder.hpp"

#include "judge/run/output_window.hpp"
#include "judge/sandbox/process.hpp"
#include "judge/sandbox/sandbox_layers.hpp"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include <sched.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using judge::child_process;
using judge::process_options;
using judge::sandbox_layer;

namespace {

auto in(std::chrono::milliseconds ms) { return std::chrono::steady_clock::now() + ms; }

std::string read_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string home() {
  const char* home = std::getenv("HOME");
  return home ? home : "/root";
}

/// /bin/sh -c script in the sandbox, working in `work` (writable).
process_options sandboxed_shell(const std::string& script, const fs::path& work) {
  process_options options;
  options.argv = {"/bin/sh", "-c", script};
  options.env = judge::child_environment();
  options.sandbox = true;
  options.working_dir = work;
  options.writable_paths = {work};
  return options;
}

/// Whether the machine gave `child` the layers these tests need; says so when it did not.
bool in_private_root(const child_process& child) {
  if (!child.sandboxed() || !child.layers().on(sandbox_layer::private_root) ||
      !child.layers().on(sandbox_layer::pid_namespace)) {
    std::string why = child.sandbox_note();
    for (const auto& m : child.layers().missing) why += " " + m.reason;
    WARN("no sandbox with a PID namespace and a private root here (" << why << "); not checked");
    return false;
  }
  return true;
}

} // namespace

TEST_CASE("a sandboxed child sees only its own processes, under an init of its own", "[sandbox]") {
  judge_test::temp_folder work;
  // The shell counts /proc's process folders itself (a glob and a loop, no other process), so that the
  // count does not depend on whether a pipeline's later command has started yet.
  child_process child(
      sandboxed_shell("echo $$; n=0; for p in /proc/[0-9]*; do n=$((n + 1)); done; echo $n", work.path()));
  if (!in_private_root(child)) return;
  auto status = child.wait(in(10s));
  CAPTURE(child.err().kept);
  CHECK(status.exit_code == 0);
  // PID 2 under the namespace's init (1), and those two the only processes it sees.
  CHECK(child.out().kept == "2\n2\n");
}

TEST_CASE("a sandboxed runner gets the judge's output window as fd 4 and no other descriptor", "[sandbox]") {
  judge_test::temp_folder work;
  std::string why;
  const auto window = judge::output_window::create(4096, &why);
  INFO(why);
  REQUIRE(window);
  // The shell says which of its first descriptors are open (0, 1, 2, 3 the result channel, 4 the window,
  // and no other of the judge's), then writes through fd 4.
  process_options options =
      sandboxed_shell("for n in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do [ -e /proc/self/fd/$n ] "
                      "&& printf '%s ' $n; done; echo; printf JUDG >&4 && echo wrote >&3",
                      work.path());
  options.result_channel = true;
  options.shared_fd = window->fd();
  child_process child(options);
  if (!in_private_root(child)) return;
  CHECK(child.read_result_line(in(10s)) == std::optional<std::string>("wrote"));
  child.wait(in(10s));
  CAPTURE(child.err().kept);
  CHECK(child.out().kept == "0 1 2 3 4 \n");
  CHECK(std::memcmp(window->floats_at(0, 1), "JUDG", 4) == 0);
}

TEST_CASE("a process a sandboxed child left behind with setsid() dies with the child", "[sandbox]") {
  judge_test::temp_folder work;
  // The grandchild leaves the process group and session, and would write its mark after the child ended.
  child_process child(sandboxed_shell("setsid sh -c 'sleep 2; echo escaped > mark' & sleep 0.2; exit 0", work.path()));
  if (!in_private_root(child)) return;
  auto status = child.wait(in(10s));
  CHECK(status.exit_code == 0);
  ::sleep(3);
  CHECK_FALSE(fs::exists(work.path() / "mark"));
}

TEST_CASE("the program's own exit and signal are reported through the namespace's init", "[sandbox]") {
  judge_test::temp_folder work;
  SECTION("an exit code") {
    child_process child(sandboxed_shell("exit 7", work.path()));
    if (!in_private_root(child)) return;
    auto status = child.wait(in(10s));
    CHECK(status.exited);
    CHECK(status.exit_code == 7);
  }
  SECTION("a signal the program sends itself, which an init would ignore") {
    child_process child(sandboxed_shell("kill -ABRT $$", work.path()));
    if (!in_private_root(child)) return;
    auto status = child.wait(in(10s));
    CHECK(judge::describe(status) == "killed by signal 6 (SIGABRT)");
  }
  SECTION("the judge's kill at the time limit") {
    child_process child(sandboxed_shell("sleep 30", work.path()));
    if (!in_private_root(child)) return;
    auto status = child.wait(in(300ms));
    CHECK(status.killed_by_judge);
  }
}

TEST_CASE("a sandboxed child sees only the system and the paths it is given", "[sandbox]") {
  judge_test::temp_folder judge_tree, work;
  fs::create_directory(judge_tree.path() / "given");
  std::ofstream(judge_tree.path() / "given" / "header.h") << "visible";
  std::ofstream(judge_tree.path() / "given" / "secret") << "do not read";
  std::ofstream(judge_tree.path() / "other_submission.cu") << "do not read either";
  auto options =
      sandboxed_shell("cat " + (judge_tree.path() / "given" / "header.h").string() + "; echo; cat " +
                          (judge_tree.path() / "given" / "secret").string() + "; ls " + judge_tree.path().string() +
                          "; ls -A " + home() + " 2>/dev/null | wc -l; ls / | tr '\\n' ' '",
                      work.path());
  options.read_only_paths = {judge_tree.path() / "given"};
  options.hidden_paths = {judge_tree.path() / "given" / "secret"};
  child_process child(options);
  if (!in_private_root(child)) return;
  auto status = child.wait(in(10s));
  CAPTURE(child.err().kept);
  CHECK(status.exit_code == 0);
  const std::string root_listing = "bin dev etc lib";
  CHECK(child.out().kept.rfind("visible\ngiven\n0\n", 0) == 0);
  CHECK(child.out().kept.find(root_listing) != std::string::npos);
  CHECK(child.out().kept.find("home") == std::string::npos);
  CHECK(child.out().kept.find("root ") == std::string::npos);
}

TEST_CASE("a sandboxed child writes only in its writable paths and its own /tmp", "[sandbox]") {
  judge_test::temp_folder given, work;
  auto options = sandboxed_shell("echo a > ok; echo b > /tmp/t && cat /tmp/t; echo c > " + given.path().string() +
                                     "/no; echo d > /usr/no; echo e > /no; echo f > /dev/no",
                                 work.path());
  options.read_only_paths = {given.path()};
  child_process child(options);
  if (!in_private_root(child)) return;
  child.wait(in(10s));
  CHECK(child.out().kept == "b\n");
  CHECK(fs::exists(work.path() / "ok"));
  CHECK(fs::is_empty(given.path()));
  CHECK_FALSE(fs::exists("/usr/no"));
  CHECK_FALSE(fs::exists("/no"));
  CHECK_FALSE(fs::exists("/dev/no"));
  CHECK_FALSE(fs::exists("/tmp/t"));
}

TEST_CASE("a sandboxed child's /dev holds null and urandom but no zero and no GPU unless asked", "[sandbox]") {
  judge_test::temp_folder work;
  auto options = sandboxed_shell("ls /dev | tr '\\n' ' '; head -c 4 /dev/urandom | wc -c; cat /dev/zero", work.path());
  child_process child(options);
  if (!in_private_root(child)) return;
  auto status = child.wait(in(10s));
  CHECK(child.out().kept == "fd null random stderr stdin stdout urandom 4\n");
  CHECK(child.err().kept.find("/dev/zero: No such file") != std::string::npos);
  CHECK(status.exit_code != 0);
}

TEST_CASE("an include of /dev/zero fails at once in the sandbox, and RLIMIT_AS bounds a compile", "[sandbox]") {
  judge_test::temp_folder work;
  std::ofstream(work.path() / "a.c") << "#include \"/dev/zero\"\n";
  auto options = sandboxed_shell("cc -E a.c; python3 -c 'bytearray(1 << 31)' 2>&1 | tail -1", work.path());
  options.address_space_bytes = std::size_t(1) << 30;
  child_process child(options);
  if (!in_private_root(child)) return;
  auto status = child.wait(in(10s));
  CHECK_FALSE(status.killed_by_judge);
  CHECK(child.err().kept.find("/dev/zero: No such file or directory") != std::string::npos);
  CHECK(child.out().kept.find("MemoryError") != std::string::npos);
}

TEST_CASE("without user namespaces the child still runs, unsandboxed, with the reason for every layer", "[sandbox]") {
  // A user namespace in which no further one may be made: the judge's children are refused there.
  pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    const std::string uid = std::to_string(::getuid()), gid = std::to_string(::getgid());
    if (::unshare(CLONE_NEWUSER) != 0) ::_exit(77);
    std::ofstream("/proc/self/setgroups") << "deny";
    std::ofstream("/proc/self/uid_map") << "0 " << uid << " 1\n";
    std::ofstream("/proc/self/gid_map") << "0 " << gid << " 1\n";
    std::ofstream limit("/proc/sys/user/max_user_namespaces");
    if (!(limit << "0\n" << std::flush)) ::_exit(77);
    process_options options;
    options.argv = {"/bin/sh", "-c", "echo ran"};
    options.env = judge::child_environment();
    options.sandbox = true;
    try {
      child_process child(options);
      child.wait(in(10s));
      const bool all_missing = child.layers().missing.size() == 4;
      const bool noted = !child.sandbox_note().empty();
      ::_exit(!child.sandboxed() && noted && all_missing && child.out().kept == "ran\n" ? 0 : 1);
    } catch (...) {
      ::_exit(2);
    }
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFEXITED(status));
  if (WEXITSTATUS(status) == 77) {
    WARN("cannot make a user namespace that refuses further ones here; not checked");
    return;
  }
  CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("a sandboxed child's /etc is its own: the sandbox user, the loader's cache, no host secrets", "[sandbox]") {
  judge_test::temp_folder work;
  auto options =
      sandboxed_shell("ls /etc | tr '\\n' ' '; echo; id -un; cat /etc/shadow /etc/hostname 2>&1 | wc -l", work.path());
  child_process child(options);
  if (!in_private_root(child)) return;
  child.wait(in(10s));
  CAPTURE(child.err().kept);
  const std::string& out = child.out().kept;
  for (const char* file : {"group ", "hosts ", "nsswitch.conf ", "passwd "}) CHECK(out.find(file) != std::string::npos);
  for (const char* host_file : {"shadow", "hostname", "ssh", "sudoers", "gshadow"}) {
    CAPTURE(host_file);
    CHECK(out.find(host_file) == std::string::npos);
  }
  CHECK(out.find("\nsandbox\n") != std::string::npos);
  CHECK(out.find("\n2\n") != std::string::npos); // two "No such file" lines, nothing of the files
}

TEST_CASE("a sandboxed child of a judge run as root is an unprivileged user without the judge's groups", "[sandbox]") {
  if (::getuid() != 0) {
    WARN("the judge is not root here: its children keep its own uid, as they should; not checked");
    return;
  }
  judge_test::temp_folder work;
  auto options = sandboxed_shell("id -u; id -G; touch mine && stat -c %u mine", work.path());
  child_process child(options);
  if (!in_private_root(child)) return;
  child.wait(in(10s));
  CAPTURE(child.err().kept);
  CHECK(child.out().kept == "65534\n65534\n65534\n");
  // Outside, the file is the unprivileged user's too, not root's.
  struct stat info {};
  REQUIRE(::stat((work.path() / "mine").c_str(), &info) == 0);
  CHECK(info.st_uid == 65534);
}

TEST_CASE("nothing a sandboxed child writes can be run, and /proc/self/mem cannot be written", "[sandbox]") {
  judge_test::temp_folder work;
  auto options = sandboxed_shell("for d in . /tmp; do cp /bin/true $d/t && chmod +x $d/t && $d/t && echo ran $d; done; "
                                 "(exec 3<>/proc/self/mem) 2>/dev/null && echo mem; "
                                 "grep -c noexec /proc/self/mountinfo >/dev/null && echo checked",
                                 work.path());
  child_process child(options);
  if (!in_private_root(child)) return;
  child.wait(in(10s));
  CAPTURE(child.err().kept);
  CHECK(child.out().kept == "checked\n");
  CHECK(child.err().kept.find("Permission denied") != std::string::npos);
}

TEST_CASE("a sandboxed child asked for loopback reaches itself on 127.0.0.1, and only then", "[sandbox]") {
  judge_test::temp_folder work;
  const std::string connect =
      "python3 -c \"import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(); "
      "socket.create_connection(s.getsockname(), timeout=2); print('connected')\" 2>&1 | tail -1";
  auto options = sandboxed_shell(connect, work.path());
  options.loopback = true;
  child_process child(options);
  if (!in_private_root(child)) return;
  child.wait(in(10s));
  CHECK(child.out().kept == "connected\n");
  auto without = sandboxed_shell(connect, work.path());
  child_process down(without);
  down.wait(in(10s));
  CHECK(down.out().kept != "connected\n");
}

TEST_CASE("a sandboxed child starts while the judge has other threads", "[sandbox]") {
  // The judge grades and compiles from several threads: the child's set-up, between clone and exec,
  // must not wait for any of them (glibc's set*id would, for threads the child does not have).
  std::atomic<bool> done{false};
  std::thread busy([&] {
    while (!done) std::this_thread::sleep_for(1ms);
  });
  judge_test::temp_folder work;
  auto options = sandboxed_shell("id -u", work.path());
  const auto start = std::chrono::steady_clock::now();
  auto result = judge::run_to_completion(options, 20s);
  done = true;
  busy.join();
  CAPTURE(result.err.kept);
  CHECK_FALSE(result.status.killed_by_judge);
  CHECK(result.status.exit_code == 0);
  CHECK(std::chrono::steady_clock::now() - start < 10s);
}

TEST_CASE("a judge's folder inside a bound system folder is empty in the sandbox but what is named below it is not",
          "[sandbox]") {
  // A judge installed under /usr/local (or its store, or its cache there): /usr is bound for the system.
  const fs::path prefix = "/usr/local/gpu-judge-sandbox-test-" + std::to_string(::getpid());
  std::error_code ec;
  fs::create_directories(prefix / "runner-cache" / "entry", ec);
  if (ec) {
    WARN("cannot make a folder under /usr/local here (" << ec.message() << "); not checked");
    return;
  }
  struct remove_after {
    fs::path path;
    ~remove_after() {
      std::error_code ignored;
      fs::remove_all(path, ignored);
    }
  } cleanup{prefix};
  std::ofstream(prefix / "classmate.cu") << "a classmate's solution";
  std::ofstream(prefix / "runner-cache" / "entry" / "solution.so") << "named";
  judge_test::temp_folder work;
  auto options =
      sandboxed_shell("cat " + (prefix / "classmate.cu").string() + " || echo unreadable; ls -A " + prefix.string() +
                          " | tr '\\n' ' '; echo; cat " + (prefix / "runner-cache" / "entry" / "solution.so").string() +
                          "; echo; touch " + prefix.string() + "/planted || echo read-only",
                      work.path());
  options.masked_paths = {prefix};
  options.read_only_paths = {prefix / "runner-cache" / "entry"};
  child_process child(options);
  if (!in_private_root(child)) return;
  child.wait(in(10s));
  CAPTURE(child.err().kept);
  CHECK(child.out().kept == "unreadable\nrunner-cache \nnamed\nread-only\n");
  CHECK_FALSE(fs::exists(prefix / "planted"));
}

TEST_CASE("a sandboxed child writes no more than its scratch cap, and what it left is copied out", "[sandbox]") {
  judge_test::temp_folder work;
  std::ofstream(work.path() / "input.cu") << "the learner's unit";
  auto options = sandboxed_shell("cat input.cu; echo; echo object > unit.o; "
                                 "head -c 3000000 /dev/urandom > huge.o || echo full; "
                                 "echo changed > input.cu || echo read-only; mkdir kept; ln -s /etc/passwd link; "
                                 "sleep 30 > /dev/null & echo started",
                                 work.path());
  options.scratch_bytes = 1 << 20;
  // As a compile of a source in the folder names it: its files are shown, read-only.
  options.read_only_paths = {work.path()};
  child_process child(options);
  if (!in_private_root(child)) return;
  const auto status = child.wait(in(10s));
  CAPTURE(child.err().kept);
  CHECK(status.exit_code == 0);
  CHECK(child.out().kept == "the learner's unit\nfull\nread-only\nstarted\n");
  CHECK(read_text(work.path() / "input.cu") == "the learner's unit");
  CHECK(read_text(work.path() / "unit.o") == "object\n");
  // The part of huge.o that fit is copied out, never more than the cap.
  REQUIRE(fs::exists(work.path() / "huge.o"));
  CHECK(fs::file_size(work.path() / "huge.o") <= (1u << 20));
  // Only regular files come out: no folder, no link to a file of the judge's.
  CHECK_FALSE(fs::exists(work.path() / "kept"));
  CHECK_FALSE(fs::exists(fs::symlink_status(work.path() / "link")));
}
