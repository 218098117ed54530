// One server per store. Two servers on one store each put the other's submissions in progress back in
// the queue at start (they look abandoned) and then both grade them; a lock makes the second one refuse.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

namespace judge::service {

/// Another server holds the store: the message names its process and host and when it started. judge serve
/// says it as a usage error (exit 2): the command named a store in use.
class store_in_use : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// An exclusive lock on `<store>.serve-lock` (flock: released when the process ends, even by SIGKILL, so
/// a crashed server never blocks its successor), holding "pid PID on HOST since TIME" for the message a
/// second server gives. Throws store_in_use when another process holds it.
class store_lock {
public:
  explicit store_lock(const std::filesystem::path& store);
  ~store_lock();
  store_lock(const store_lock&) = delete;
  store_lock& operator=(const store_lock&) = delete;

  static std::filesystem::path path_for(const std::filesystem::path& store);

private:
  int m_fd = -1;
};

} // namespace judge::service
