// Child processes for untrusted code: own process group, captured and capped output, wall-time limits,
// and a kill of the whole group. No CUDA here; the runner is just a program.
#pragma once

#include "judge/sandbox/sandbox_layers.hpp"

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace judge {

class cgroup_leaf;

/// Output of one stream of a child: the first `cap` bytes kept, the rest only counted.
struct captured_output {
  std::string kept;
  std::size_t dropped_bytes = 0;
};

struct process_options {
  std::vector<std::string> argv;          ///< argv[0] is the program (absolute or on PATH)
  std::filesystem::path working_dir;      ///< empty: inherit
  std::map<std::string, std::string> env; ///< the complete environment (nothing is inherited)
  std::size_t output_cap = 64 * 1024;     ///< [B] per stream kept
  bool result_channel = false;            ///< open fd 3 in the child for the runner protocol
  /// With result_channel: a descriptor of the judge's that the child gets as its fd 4 (a runner's output
  /// window, judge/run/output_window.hpp); -1: none. The judge keeps its own.
  int shared_fd = -1;
  /// The child runs in the sandbox (sandbox_layers.hpp) where the system allows it: its own user,
  /// network, mount and PID namespaces, a private root and, where cgroup v2 is delegated, its own cgroup.
  bool sandbox = false;
  /// With sandbox, what the private root holds besides the system's folders (read-only). Paths that do
  /// not exist are skipped; links are resolved. The working directory must be among them.
  std::vector<std::filesystem::path> read_only_paths;
  std::vector<std::filesystem::path> writable_paths;
  std::size_t tmp_bytes = 64u << 20; ///< [B] size of the private /tmp (a tmpfs)
  /// [B] With sandbox, a private root and a PID namespace: the working directory (one of the writable
  /// paths) is, inside the sandbox, a tmpfs of this size holding read-only binds of what the folder held
  /// when the child started, so that the child writes no more than this in all. When the program ends
  /// (and every process it left behind is killed), the regular files it left at the tmpfs's top level
  /// are copied into the folder. 0: the folder itself is bound, writable. Without a PID namespace the
  /// folder is bound as it is (the caller measures it afterwards).
  std::size_t scratch_bytes = 0;
  /// With a private root: /opt of the host is bound read-only (Nsight Compute and other tools installed
  /// there). Compiles go without it: what they need of the CUDA toolkit is bound by its own path.
  bool host_opt = true;
  /// With a private root: the judge's own folders (its install prefix, problems, runner cache, store,
  /// $HOME). Each one that a bound system folder shows (an install under /usr/local) is an empty
  /// read-only folder in the new root; the named paths below it are still bound on top.
  std::vector<std::filesystem::path> masked_paths;
  /// The NVIDIA device files, /dev/shm and /sys (read-only), which the CUDA driver needs.
  bool gpu_devices = false;
  /// With sandbox: each folder is covered by an empty read-only tmpfs and each file by /dev/null, in a
  /// mount namespace whose mounts the child cannot undo. Paths that do not exist are skipped. Inside the
  /// private root they are absent anyway; they are covered there too in case a bound folder holds them.
  std::vector<std::filesystem::path> hidden_paths;
  /// With a private root: its /proc is read-only once the sandbox is set up, so that nothing writes
  /// /proc/self/mem (which writes even pages mapped read-only, such as code).
  bool read_only_proc = true;
  /// With sandbox: the network namespace's loopback interface is up (it is down otherwise), for a tool
  /// whose front end talks to the library it injects over TCP on 127.0.0.1 (Nsight Compute). Nothing
  /// outside the namespace is reachable either way.
  bool loopback = false;
  /// Limits; 0 means none. memory_bytes and max_pids apply through the child's cgroup (with sandbox, where
  /// cgroup v2 is delegated); the rlimits apply always (RLIMIT_AS only makes sense for programs that do
  /// not map huge address ranges: compilers, not CUDA programs).
  std::size_t memory_bytes = 0;        ///< [B] cgroup memory.max (and no swap)
  int max_pids = 0;                    ///< cgroup pids.max
  std::size_t address_space_bytes = 0; ///< [B] RLIMIT_AS
  std::size_t file_size_bytes = 0;     ///< [B] RLIMIT_FSIZE: the largest file the child may write
};

/// A running child. Move-only; the destructor kills the process group and reaps it. The first child
/// makes the judge a child subreaper (PR_SET_CHILD_SUBREAPER), so that the group's other members are
/// reaped by the judge too, whatever the system's init does.
class child_process {
public:
  /// Starts the child in its own process group, with no descriptors but 0-2 (and 3) and no core dumps;
  /// throws std::system_error ("cannot start /x/y: No such file or directory") if it cannot start.
  explicit child_process(const process_options& options);
  child_process(child_process&&) noexcept;
  child_process& operator=(child_process&&) noexcept;
  child_process(const child_process&) = delete;
  child_process& operator=(const child_process&) = delete;
  ~child_process();

  /// Writes one line (a newline is appended) to the child's stdin while draining its output; false if
  /// the child closed stdin, or if `deadline` passed first (then timed_out() is true).
  bool send_line(const std::string& line,
                 std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max());
  void close_stdin();
  /// Reads what the child's stdout and stderr hold now into out() and err(), without waiting.
  void drain_output() { drain(0, 0); }

  /// Waits for the next complete line on fd 3 while draining stdout/stderr, up to `deadline`.
  /// Returns the line, or nullopt when the channel closed (the child exited) or the deadline passed
  /// (then timed_out() is true).
  std::optional<std::string> read_result_line(std::chrono::steady_clock::time_point deadline);
  bool timed_out() const { return m_timed_out; }

  /// Kills the whole process group (SIGKILL) and reaps the child.
  void kill_group();
  /// Sends SIGKILL to the whole process group (and every process of its cgroup) without waiting for the
  /// exit: no code of the child runs again, while the kernel's teardown of it (a CUDA context's, in the
  /// driver) may take a while yet. wait() or kill_group() reaps it later.
  void stop_group();
  /// Waits for the child to exit (draining output) up to `deadline`; kills the group after it.
  struct exit_status {
    bool exited = false; ///< normal exit
    int exit_code = 0;
    bool signaled = false; ///< killed by a signal
    int signal = 0;
    bool killed_by_judge = false; ///< the judge killed it (time limit)
  };
  exit_status wait(std::chrono::steady_clock::time_point deadline);

  /// Whether the child runs in the sandbox (at least its own user, network and mount namespaces, hidden
  /// paths covered). False when options.sandbox was not asked for or the system refused namespaces.
  bool sandboxed() const { return m_sandboxed; }
  /// Why the sandbox is missing ("unshare: Operation not permitted"); empty when sandboxed or not asked.
  const std::string& sandbox_note() const { return m_sandbox_note; }
  /// With options.sandbox: which layers are in force, and why each missing one is missing.
  const sandbox_layers& layers() const { return m_layers; }

  const captured_output& out() const { return m_out; }
  const captured_output& err() const { return m_err; }
  int pid() const { return m_pid; }

private:
  /// What drain() may wait for besides output (bit flags; drain returns those that are ready).
  enum wait_for : unsigned { for_output = 0, for_result = 1, for_stdin_space = 2, for_exit = 4 };
  /// Polls stdout/stderr and what `wanted` names for up to `timeout_ms`, keeping what arrived.
  unsigned drain(int timeout_ms, unsigned wanted);
  bool has_exited() const; ///< exited without being reaped yet
  void reap();
  void close_all();
  int m_pid = -1;
  int m_pidfd = -1; ///< becomes readable when the child exits (Linux >= 5.3); -1 if unavailable
  int m_stdin = -1, m_stdout = -1, m_stderr = -1, m_result = -1;
  std::size_t m_cap = 0;
  std::string m_result_buffer;
  captured_output m_out, m_err;
  bool m_timed_out = false;
  bool m_reaped = false;
  bool m_kill_sent = false;
  bool m_sandboxed = false;
  std::string m_sandbox_note;
  sandbox_layers m_layers;
  /// With a PID namespace the judge's child is the namespace's init, which reports the program's wait
  /// status here before it exits (an init cannot die of the program's signal); -1 otherwise.
  int m_exit_report = -1;
  std::unique_ptr<cgroup_leaf> m_cgroup; ///< killed (cgroup.kill) and removed with the child
  exit_status m_status;
};

/// "exited with code 3", "killed by signal 11 (SIGSEGV)", "stopped by the judge after the time limit".
std::string describe(const child_process::exit_status& status);

/// Runs a program to completion (compilers, tools): output captured, wall-time limited.
struct run_result {
  child_process::exit_status status;
  captured_output out, err;
  double seconds = 0; // [s]
};
run_result run_to_completion(const process_options& options, std::chrono::duration<double> limit);

/// The environment the judge passes to children: PATH, HOME, LANG, CUDA-related variables only
/// (never JUDGE_SECRET_FILE or anything naming hidden data).
std::map<std::string, std::string> child_environment();

/// The judge's own environment, whole: for the system's tools it runs on its own behalf (Slurm's client,
/// nvidia-smi, a GPU worker), which read their configuration from it. Never for learner code.
std::map<std::string, std::string> judge_environment();

/// Kills every child process group started by this process (for SIGINT handling). Async-signal-safe.
void kill_all_children();

} // namespace judge
