// A long-lived process of the judge's own (the GPU worker `judge serve` starts per GPU), as opposed to
// child_process (process.hpp), which captures a child's output and bounds its time. A helper shares the
// judge's stdout and stderr (its log lines join the server's), runs until told to stop, and ends when the
// judge does, even when the judge is killed: a restarted server starts its own, and two never grade on one
// GPU.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace judge {

class helper_process {
public:
  /// Starts `argv` (argv[0] an absolute path) with exactly `environment`. It gets SIGTERM when the thread
  /// that started it ends, however the judge ends (PR_SET_PDEATHSIG): start it from the thread that
  /// watches it. Throws std::system_error when it cannot fork.
  helper_process(const std::vector<std::string>& argv, const std::map<std::string, std::string>& environment);
  helper_process(const helper_process&) = delete;
  helper_process& operator=(const helper_process&) = delete;
  /// Kills it (SIGKILL) and reaps it if it still runs.
  ~helper_process();

  int pid() const { return m_pid; }
  /// Its wait status once it has ended (then it is reaped); nullopt while it runs.
  std::optional<int> poll();
  /// Asks it to finish (SIGTERM); poll() says when it has.
  void terminate();

private:
  int m_pid = -1;
  std::optional<int> m_status;
};

} // namespace judge
