// What a long-lived process (the server's compile threads, a GPU worker) learns about its GPU once and
// reuses across grading runs. Each probe starts CUDA in a process of its own: on an H200 the plain probe
// took 0.37 s and the bandwidth probe 0.41 s of every run, which a one-submission batch paid on top of
// its own grading.
#pragma once

#include "judge/run/device_probe.hpp"

#include <chrono>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>

namespace judge {

class device_memo {
public:
  /// Answers older than `max_age` are probed again (a GPU's clocks can move under a long-lived worker).
  /// `probe` is probe_device except in tests. With `file`, answers are also kept there and read back by
  /// the next process (device_memo_file.hpp): for one-run processes, which would each probe anew.
  explicit device_memo(std::chrono::seconds max_age = std::chrono::minutes(10),
                       std::function<probe_result(bool)> probe = probe_device, std::filesystem::path file = {})
      : m_max_age(max_age), m_probe(std::move(probe)), m_file(std::move(file)) {}

  /// probe_device(bandwidth), or this memo's last answer to the same question if it is younger than
  /// max_age. A probe that failed (neither a device nor a clean "no device") is not kept.
  probe_result probe(bool bandwidth);
  /// Probes again now, whatever is kept, and keeps the answer: for a process that refreshes what it knows
  /// while it has nothing else to do (a GPU worker between batches), before the kept answer grows old.
  probe_result probe_now(bool bandwidth);
  /// Whether this memo's answer to the question is missing or older than `max_age` less `margin`.
  bool expires_within(std::chrono::seconds margin, bool bandwidth);

private:
  /// Probes, keeps the answer (in the file too, with `machine` its key) and returns it; m_mutex held.
  probe_result probe_and_keep(bool bandwidth, const std::string& machine);

  struct kept {
    probe_result answer;
    std::chrono::steady_clock::time_point at;
  };
  std::chrono::seconds m_max_age;
  std::function<probe_result(bool)> m_probe;
  std::filesystem::path m_file;
  std::mutex m_mutex; // the server's compile threads share one memo
  std::optional<kept> m_plain, m_with_bandwidth;
};

} // namespace judge
