#include "judge/base/file_output.hpp"

#include <fmt/format.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <random>
#include <system_error>

namespace judge {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void fail(int error, const std::string& what) {
  throw std::system_error(error, std::generic_category(), what);
}

/// Drawn once per process: the pid alone would repeat in another PID namespace sharing the folder.
unsigned process_salt() {
  static const unsigned salt = std::random_device{}();
  return salt;
}

void sync_folder(const fs::path& folder) {
  const int fd = ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) fail(errno, "cannot open the folder " + folder.string() + " to sync it");
  // Some file systems cannot sync a folder (EINVAL); the rename is then as durable as they make it.
  const int rc = ::fsync(fd);
  const int error = errno;
  ::close(fd);
  if (rc != 0 && error != EINVAL) fail(error, "cannot sync the folder " + folder.string());
}

bool is_folder(const fs::path& path) {
  struct stat info {};
  return ::lstat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

} // namespace

staged_path::staged_path(fs::path target) : m_target(std::move(target)) {
  static std::atomic<unsigned long> count{0};
  m_path = m_target.parent_path() / fmt::format(".{}.tmp-{}-{}-{:08x}", m_target.filename().string(),
                                                static_cast<long>(::getpid()), ++count, process_salt());
}

staged_path::~staged_path() {
  if (m_published) return;
  std::error_code ignored;
  fs::remove_all(m_path, ignored);
}

bool staged_path::publish(on_existing existing, bool durable) {
  const std::string where = m_target.string();
  bool ours = true;
  if (existing == on_existing::keep && !is_folder(m_path)) {
    // link() never replaces: of two writers, the first keeps the name and the second learns so.
    if (::link(m_path.c_str(), m_target.c_str()) != 0) {
      if (errno != EEXIST) fail(errno, "cannot publish " + where);
      ours = false;
    }
    std::error_code ignored;
    fs::remove(m_path, ignored); // the staged name only; the data lives on under the target's
  } else if (::rename(m_path.c_str(), m_target.c_str()) != 0) {
    // A folder cannot be renamed over one that holds something.
    if (errno != ENOTEMPTY && errno != EEXIST) fail(errno, "cannot publish " + where);
    if (existing == on_existing::keep) {
      ours = false;
    } else {
      std::error_code removed;
      fs::remove_all(m_target, removed);
      if (removed) fail(removed.value(), "cannot replace " + where);
      if (::rename(m_path.c_str(), m_target.c_str()) != 0) {
        // Another writer published between the removal and the rename: its entry is as new as this one.
        if (errno != ENOTEMPTY && errno != EEXIST) fail(errno, "cannot publish " + where);
        ours = false;
      }
    }
  }
  if (!ours) {
    std::error_code ignored;
    fs::remove_all(m_path, ignored);
  }
  m_published = true;
  if (durable && ours) sync_folder(m_target.parent_path());
  return ours;
}

bool publish_file(const fs::path& target, const std::string& text, const publish_options& options) {
  std::error_code ec;
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  if (ec) fail(ec.value(), "cannot create the folder of " + target.string());
  staged_path staged(target);
  const int fd = ::open(staged.path().c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, options.mode);
  if (fd < 0) fail(errno, "cannot create " + staged.path().string());
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = n < 0 ? errno : EIO;
      ::close(fd);
      fail(error, "cannot write " + staged.path().string());
    }
    written += static_cast<std::size_t>(n);
  }
  if (options.durable && ::fsync(fd) != 0) {
    const int error = errno;
    ::close(fd);
    fail(error, "cannot write " + staged.path().string());
  }
  if (::close(fd) != 0) fail(errno, "cannot write " + staged.path().string());
  return staged.publish(options.existing, options.durable);
}

void write_file_atomically(const fs::path& path, const std::string& text, const std::string& what) {
  try {
    publish_file(path, text);
  } catch (const std::system_error& e) {
    throw std::runtime_error(fmt::format("cannot write {} {}: {}", what, path.string(), e.what()));
  }
}

} // namespace judge
