#include "harness/runner/channels.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <utility>

namespace judge_harness {
namespace {

/// Descriptors at or above this are out of the way of the ones a program opens first.
constexpr int private_fd_floor = 100;

[[noreturn]] void fail_errno(const std::string& what) { throw std::runtime_error(what + ": " + std::strerror(errno)); }

/// Moves `fd` to a close-on-exec descriptor >= private_fd_floor and closes `fd`.
int move_out_of_the_way(int fd) {
  const int moved = fcntl(fd, F_DUPFD_CLOEXEC, private_fd_floor);
  if (moved < 0) fail_errno("cannot duplicate fd " + std::to_string(fd));
  close(fd);
  return moved;
}

} // namespace

std::optional<result_channel> result_channel::take_fd3() {
  if (fcntl(3, F_GETFD) < 0) return std::nullopt;
  const int fd = move_out_of_the_way(3);
  std::FILE* file = fdopen(fd, "w");
  if (file == nullptr) fail_errno("cannot open the result channel");
  return result_channel(file);
}

result_channel::result_channel(result_channel&& other) noexcept : m_file(std::exchange(other.m_file, nullptr)) {}

// The channels' descriptors are left for the process's end to close: once the system-call filter is
// installed, closing one is a denied call (syscall_filter.hpp), and a runner that ends normally must
// not look like learner code that closed the judge's channel.
result_channel::~result_channel() {
  if (m_file != nullptr) std::fflush(m_file);
}

void result_channel::send(const std::string& json_line) {
  if (std::fputs(json_line.c_str(), m_file) < 0 || std::fputc('\n', m_file) == EOF || std::fflush(m_file) != 0)
    fail_errno("cannot write to the result channel (is the judge still reading?)");
}

request_channel request_channel::take_stdin() {
  const int fd = move_out_of_the_way(0);
  // Something must sit on fd 0, or the next file the learner opens would become "stdin".
  const int null_fd = open("/dev/null", O_RDONLY);
  if (null_fd < 0) fail_errno("cannot open /dev/null");
  if (null_fd != 0) {
    if (dup2(null_fd, 0) < 0) fail_errno("cannot put /dev/null on fd 0");
    close(null_fd);
  }
  std::FILE* file = fdopen(fd, "r");
  if (file == nullptr) fail_errno("cannot open the request channel");
  return request_channel(file);
}

request_channel::request_channel(request_channel&& other) noexcept : m_file(std::exchange(other.m_file, nullptr)) {}

request_channel::~request_channel() = default; // not closed: see ~result_channel

std::optional<std::string> request_channel::next() {
  char* buffer = nullptr;
  std::size_t capacity = 0;
  std::optional<std::string> result;
  for (;;) {
    const ssize_t length = getline(&buffer, &capacity, m_file);
    if (length < 0) break;
    std::string text(buffer, static_cast<std::size_t>(length));
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    if (!text.empty()) {
      result = std::move(text);
      break;
    }
  }
  std::free(buffer);
  return result;
}

} // namespace judge_harness
