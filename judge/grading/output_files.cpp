#include "judge/grading/output_files.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace judge {
namespace {

/// Closes a descriptor at the end of a scope.
struct fd_closer {
  int fd;
  ~fd_closer() {
    if (fd >= 0) ::close(fd);
  }
};

/// The file's `count` floats, or the reason they cannot be had.
output_read read_floats(int dir_fd, const std::string& file, std::int64_t count) {
  output_read read;
  // O_NONBLOCK: a fifo a runner left in the file's place must not stall the judge.
  const int fd = ::openat(dir_fd, file.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    read.problem = errno == ELOOP ? fmt::format("output file {} is a symbolic link, not the file itself", file)
                                  : fmt::format("output file {} cannot be opened: {}", file, std::strerror(errno));
    return read;
  }
  const fd_closer closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    read.problem = fmt::format("output file {} is not a regular file", file);
    return read;
  }
  const auto expected = static_cast<std::uint64_t>(count) * sizeof(float);
  if (static_cast<std::uint64_t>(st.st_size) != expected) {
    read.problem = fmt::format("output file {} holds {} bytes, not {}", file, st.st_size, expected);
    return read;
  }
  std::vector<float> values(static_cast<std::size_t>(count));
  auto* bytes = reinterpret_cast<char*>(values.data());
  std::size_t got = 0;
  while (got < expected) {
    const ssize_t n = ::pread(fd, bytes + got, expected - got, static_cast<off_t>(got));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      read.problem = n < 0 ? fmt::format("output file {} cannot be read: {}", file, std::strerror(errno))
                           : fmt::format("output file {} ended after {} bytes, not {}", file, got, expected);
      return read;
    }
    got += static_cast<std::size_t>(n);
  }
  read.values = std::move(values);
  return read;
}

} // namespace

std::string output_file_name(std::int64_t case_index, std::size_t check, const std::string& buffer) {
  return fmt::format("{}.{}.{}.bin", case_index, check, buffer);
}

output_read take_output(const scratch_folder& scratch, const judge_wire::check_answer& answer, const std::string& file,
                        std::int64_t count) {
  if (std::find(answer.outputs.begin(), answer.outputs.end(), file) == answer.outputs.end()) {
    output_read read;
    read.problem = fmt::format("the runner did not say that output file {} is ready", file);
    return read;
  }
  output_read read = read_floats(scratch.fd(), file, count);
  scratch.remove_file(file);
  return read;
}

text_read take_text(const scratch_folder& scratch, const std::string& file, std::uint64_t max_bytes) {
  text_read read;
  const int fd = ::openat(scratch.fd(), file.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    read.problem = fmt::format("{} cannot be opened: {}", file, std::strerror(errno));
    scratch.remove_file(file);
    return read;
  }
  const fd_closer closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    read.problem = fmt::format("{} is not a regular file", file);
  } else if (static_cast<std::uint64_t>(st.st_size) > max_bytes) {
    read.problem = fmt::format("{} holds {} bytes, more than the {} a recording may", file, st.st_size, max_bytes);
  } else {
    std::string text(static_cast<std::size_t>(st.st_size), '\0');
    std::size_t got = 0;
    while (got < text.size()) {
      const ssize_t n = ::pread(fd, text.data() + got, text.size() - got, static_cast<off_t>(got));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      got += static_cast<std::size_t>(n);
    }
    if (got == text.size())
      read.text = std::move(text);
    else
      read.problem = fmt::format("{} cannot be read to its end", file);
  }
  scratch.remove_file(file);
  return read;
}

} // namespace judge
