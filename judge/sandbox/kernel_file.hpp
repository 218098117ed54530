// Writing a short text into a file of the kernel's (/proc/self/uid_map, a cgroup's control files): one
// open, one write, one close and nothing else, so that a child between fork and exec may call it too
// (no allocation: the text is a view).
#pragma once

#include <cerrno>
#include <string_view>

#include <fcntl.h>
#include <unistd.h>

namespace judge {

/// Writes all of `text` into `path` in one write(2); false with errno set (as the failing call left it)
/// when the file cannot be opened or takes less than all of it.
inline bool write_kernel_file(const char* path, std::string_view text) {
  const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  const int error = errno;
  ::close(fd);
  errno = error;
  return ok;
}

} // namespace judge
