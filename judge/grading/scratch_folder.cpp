#include "judge/grading/scratch_folder.hpp"

#include "common/wire.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>
#include <vector>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace judge {
namespace {

/// Folders nested deeper than this inside a scratch folder are left to the system's /tmp cleaning:
/// following them further would let a runner exhaust the judge's descriptors or stack.
constexpr int max_depth = 32;

[[noreturn]] void fail(const std::string& what, const std::filesystem::path& path, int error) {
  throw std::runtime_error(what + " " + path.string() + ": " + std::strerror(error));
}

void check_plain(const std::string& name) {
  // The judge's own names; a slip here would reach outside the folder, so it is checked all the same.
  if (!judge_wire::is_simple_file_name(name))
    throw std::logic_error("scratch folder entry \"" + name + "\" is not a plain file name");
}

/// The names of the entries of folder `dir_fd`, except "." and "..".
std::vector<std::string> entries(int dir_fd) {
  std::vector<std::string> names;
  // A descriptor of its own: readdir moves its offset, and closedir closes it.
  const int fd = ::openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return names;
  DIR* dir = ::fdopendir(fd);
  if (!dir) {
    ::close(fd);
    return names;
  }
  while (const dirent* e = ::readdir(dir)) {
    const std::string name = e->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  ::closedir(dir);
  return names;
}

/// Removes everything inside folder `dir_fd`; nothing outside it is ever named.
void remove_contents(int dir_fd, int depth) {
  for (const std::string& name : entries(dir_fd)) {
    if (::unlinkat(dir_fd, name.c_str(), 0) == 0 || errno == ENOENT) continue;
    if (errno != EISDIR || depth >= max_depth) continue;
    const int sub = ::openat(dir_fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (sub < 0) continue;
    remove_contents(sub, depth + 1);
    ::close(sub);
    ::unlinkat(dir_fd, name.c_str(), AT_REMOVEDIR);
  }
}

} // namespace

scratch_folder::scratch_folder(std::filesystem::path path, int fd, int parent_fd, std::string name)
    : m_path(std::move(path)), m_fd(fd), m_parent_fd(parent_fd), m_name(std::move(name)) {}

scratch_folder scratch_folder::create_temporary(const std::string& prefix) {
  std::string path = (std::filesystem::temp_directory_path() / (prefix + "XXXXXX")).string();
  if (!::mkdtemp(path.data())) fail("cannot create the scratch folder", path, errno); // mode 0700
  const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    const int error = errno;
    ::rmdir(path.c_str());
    fail("cannot open the scratch folder", path, error);
  }
  return scratch_folder(path, fd, -1, "");
}

scratch_folder scratch_folder::make_subfolder(const std::string& name) const {
  check_plain(name);
  const std::filesystem::path path = m_path / name;
  if (::mkdirat(m_fd, name.c_str(), 0700) != 0) fail("cannot create the scratch folder", path, errno);
  const int fd = ::openat(m_fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  const int parent = fd < 0 ? -1 : ::fcntl(m_fd, F_DUPFD_CLOEXEC, 0);
  if (fd < 0 || parent < 0) {
    const int error = errno;
    if (fd >= 0) ::close(fd);
    ::unlinkat(m_fd, name.c_str(), AT_REMOVEDIR);
    fail("cannot open the scratch folder", path, error);
  }
  return scratch_folder(path, fd, parent, name);
}

scratch_folder::scratch_folder(scratch_folder&& other) noexcept
    : m_path(std::move(other.m_path)), m_fd(std::exchange(other.m_fd, -1)),
      m_parent_fd(std::exchange(other.m_parent_fd, -1)), m_name(std::move(other.m_name)) {}

scratch_folder& scratch_folder::operator=(scratch_folder&& other) noexcept {
  if (this != &other) {
    release();
    m_path = std::move(other.m_path);
    m_fd = std::exchange(other.m_fd, -1);
    m_parent_fd = std::exchange(other.m_parent_fd, -1);
    m_name = std::move(other.m_name);
  }
  return *this;
}

scratch_folder::~scratch_folder() { release(); }

void scratch_folder::release() noexcept {
  if (m_fd < 0) return;
  remove_contents(m_fd, 0);
  ::close(m_fd);
  m_fd = -1;
  if (m_parent_fd >= 0) {
    ::unlinkat(m_parent_fd, m_name.c_str(), AT_REMOVEDIR);
    ::close(m_parent_fd);
    m_parent_fd = -1;
  } else {
    // rmdir follows no link: whatever is at this path now, only an empty folder can go.
    ::rmdir(m_path.c_str());
  }
}

void scratch_folder::remove_file(const std::string& name) const {
  check_plain(name);
  ::unlinkat(m_fd, name.c_str(), 0);
}

void scratch_folder::clear() const { remove_contents(m_fd, 0); }

} // namespace judge
