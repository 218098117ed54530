#include "judge/run/gpu_lock.hpp"

#include "judge/base/environment.hpp"
#include "judge/base/utc_time.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace fs = std::filesystem;

namespace judge {
namespace {

std::string read_all(int fd) {
  std::string text;
  char buffer[512];
  ::lseek(fd, 0, SEEK_SET);
  for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;) text.append(buffer, static_cast<std::size_t>(n));
  return text;
}

/// A UUID names a file: anything but letters, digits and '-' becomes '_'.
std::string file_name_of(const std::string& uuid) {
  std::string name = uuid.empty() ? "unknown-gpu" : uuid;
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-') c = '_';
  return name + ".lock";
}

[[noreturn]] void fail(const fs::path& file, const char* what) {
  throw std::runtime_error("cannot " + std::string(what) + " the GPU lock " + file.string() + ": " +
                           std::strerror(errno));
}

} // namespace

fs::path gpu_lock_dir() { return env_value(judge_env::lock_dir).value_or("/tmp/gpu-judge-locks"); }

gpu_lock_holder parse_gpu_lock_holder(const std::string& text) {
  gpu_lock_holder holder;
  std::istringstream in(text);
  std::string pid;
  if (!std::getline(in, pid)) return holder;
  try {
    holder.pid = std::stol(pid);
  } catch (const std::exception&) {
    return holder;
  }
  std::getline(in, holder.command);
  std::getline(in, holder.since);
  return holder;
}

gpu_lock::gpu_lock(const fs::path& dir, const std::string& uuid, const std::string& command, const wait_fn& on_wait,
                   const std::atomic<bool>* stop)
    : m_file(dir / file_name_of(uuid)) {
  std::error_code ec;
  if (fs::create_directories(dir, ec)) // new: every user of the machine may lock, none may remove another's
    fs::permissions(dir, fs::perms::all | fs::perms::sticky_bit, ec);
  m_fd = ::open(m_file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (m_fd < 0) fail(m_file, "open");
  ::fchmod(m_fd, 0666); // the umask must not lock other users out
  if (::flock(m_fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK) fail(m_file, "lock");
    if (on_wait) on_wait(parse_gpu_lock_holder(read_all(m_fd)));
    // Polled rather than blocking, so that an interrupt ends the wait whatever the signal handler's flags.
    while (::flock(m_fd, LOCK_EX | LOCK_NB) != 0) {
      if (errno != EWOULDBLOCK && errno != EINTR) fail(m_file, "lock");
      if (stop && stop->load()) {
        ::close(m_fd);
        m_fd = -1;
        return;
      }
      ::usleep(50 * 1000);
    }
  }
  const std::string holder = std::to_string(::getpid()) + "\n" + command + "\n" + utc_now() + "\n";
  if (::ftruncate(m_fd, 0) != 0 || ::pwrite(m_fd, holder.data(), holder.size(), 0) < 0) fail(m_file, "write");
}

gpu_lock::gpu_lock(gpu_lock&& other) noexcept : m_file(std::move(other.m_file)), m_fd(std::exchange(other.m_fd, -1)) {}

gpu_lock::~gpu_lock() {
  if (m_fd < 0) return;
  // The holder's text stays (the next holder overwrites it); the lock goes with the descriptor.
  ::flock(m_fd, LOCK_UN);
  ::close(m_fd);
}

} // namespace judge
