#include "judge/service/queue/store_lock.hpp"

#include "judge/service/queue/submission_request.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

namespace judge::service {

std::filesystem::path store_lock::path_for(const std::filesystem::path& store) {
  return store.string() + ".serve-lock";
}

store_lock::store_lock(const std::filesystem::path& store) {
  const std::filesystem::path path = path_for(store);
  m_fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (m_fd < 0)
    throw std::runtime_error("cannot create the store's lock " + path.string() + ": " + std::strerror(errno));
  if (::flock(m_fd, LOCK_EX | LOCK_NB) != 0) {
    const int why = errno;
    char holder[256] = {};
    const ssize_t n = ::pread(m_fd, holder, sizeof holder - 1, 0);
    ::close(m_fd);
    m_fd = -1;
    if (why != EWOULDBLOCK)
      throw std::runtime_error("cannot lock the store (" + path.string() + "): " + std::strerror(why));
    std::string who = n > 0 ? std::string(holder, static_cast<std::size_t>(n)) : "another process";
    while (!who.empty() && (who.back() == '\n' || who.back() == ' ')) who.pop_back();
    throw store_in_use("another judge serve uses the store " + store.string() + " (" + who + "; lock " + path.string() +
                       "): two servers on one store would grade submissions twice. "
                       "Stop that one first, or give this one its own --db");
  }
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  const std::string line = "pid " + std::to_string(::getpid()) + " on " + host + " since " +
                           utc_text(std::chrono::system_clock::now()) + "\n";
  if (::ftruncate(m_fd, 0) != 0 || ::pwrite(m_fd, line.data(), line.size(), 0) < 0) {
    // The lock holds without its note; a second server then names no holder, which is all that is lost.
  }
}

store_lock::~store_lock() {
  if (m_fd >= 0) ::close(m_fd);
}

} // namespace judge::service
