// The runner's two protocol channels. Both are moved off the descriptors the judge passed them on
// (requests: fd 0, answers: fd 3) to close-on-exec descriptors, and fd 0 is pointed at /dev/null:
// learner code that reads stdin or writes to fd 3 then touches neither channel by accident, and
// programs it starts inherit neither.
#pragma once

#include <cstdio>
#include <optional>
#include <string>

namespace judge_harness {

/// Answers, one JSON object per line.
class result_channel {
public:
  /// Takes over fd 3; nullopt when fd 3 is not open.
  static std::optional<result_channel> take_fd3();

  result_channel(result_channel&& other) noexcept;
  result_channel& operator=(result_channel&&) = delete;
  result_channel(const result_channel&) = delete;
  ~result_channel();

  /// Writes `json_line` and a newline, and flushes; throws std::runtime_error when the judge is gone.
  void send(const std::string& json_line);
  /// The descriptor the answers go to (for the system-call filter, which protects it and reports on it).
  int fd() const { return fileno(m_file); }

private:
  explicit result_channel(std::FILE* file) : m_file(file) {}
  std::FILE* m_file;
};

/// Requests, one JSON object per line.
class request_channel {
public:
  /// Takes over fd 0 (and leaves /dev/null in its place); throws std::runtime_error when it cannot.
  static request_channel take_stdin();

  request_channel(request_channel&& other) noexcept;
  request_channel& operator=(request_channel&&) = delete;
  request_channel(const request_channel&) = delete;
  ~request_channel();

  /// The next non-empty line without its newline; nullopt at end of input.
  std::optional<std::string> next();
  /// The descriptor the requests come from (for the system-call filter, which protects it).
  int fd() const { return fileno(m_file); }

private:
  explicit request_channel(std::FILE* file) : m_file(file) {}
  std::FILE* m_file;
};

} // namespace judge_harness
