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
output_read read_floats(int dir_fd, const std::string& file, std::int64_t count, std::vector<float> values) {
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
  values.resize(static_cast<std::size_t>(count));
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

bool reported_ready(const judge_wire::check_answer& answer, const std::string& file) {
  return std::find(answer.outputs.begin(), answer.outputs.end(), file) != answer.outputs.end();
}

output_read take_output(const scratch_folder& scratch, const judge_wire::check_answer& answer, const std::string& file,
                        std::int64_t count, std::vector<float> reuse) {
  if (!reported_ready(answer, file)) {
    output_read read;
    read.problem = fmt::format("the runner did not say that output file {} is ready", file);
    return read;
  }
  output_read read = read_floats(scratch.fd(), file, count, std::move(reuse));
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

std::string pass_file(const scratch_folder& from, const std::string& file, const scratch_folder& to,
                      const std::string& name, std::uint64_t max_bytes) {
  const auto done = [&](std::string problem) {
    from.remove_file(file);
    if (!problem.empty()) to.remove_file(name);
    return problem;
  };
  const int in = ::openat(from.fd(), file.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (in < 0) return done(fmt::format("{} cannot be opened: {}", file, std::strerror(errno)));
  const fd_closer close_in{in};
  struct stat st {};
  if (::fstat(in, &st) != 0 || !S_ISREG(st.st_mode)) return done(fmt::format("{} is not a regular file", file));
  const int out = ::openat(to.fd(), name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (out < 0) return done(fmt::format("{} cannot be created: {}", name, std::strerror(errno)));
  const fd_closer close_out{out};
  std::vector<char> chunk(1 << 20);
  std::uint64_t copied = 0;
  for (;;) {
    const ssize_t n = ::read(in, chunk.data(), chunk.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return done(fmt::format("{} cannot be read: {}", file, std::strerror(errno)));
    if (n == 0) break;
    copied += static_cast<std::uint64_t>(n);
    if (copied > max_bytes)
      return done(fmt::format("{} holds more than the {} MiB a recording may", file, max_bytes >> 20));
    for (ssize_t put = 0; put < n;) {
      const ssize_t w = ::write(out, chunk.data() + put, static_cast<std::size_t>(n - put));
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) return done(fmt::format("{} cannot be written: {}", name, std::strerror(errno)));
      put += w;
    }
  }
  return done("");
}

} // namespace judge
