// Publishing a file or a folder atomically: written in full under a temporary name in the folder of its
// final name, then renamed into place, so that a reader (a course's CI, a web server, another judge)
// sees the old entry or the new one, never half of one. The one way the judge publishes what others read:
// reports, pages, the judge secret, and the runner, baseline and reference caches.
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string>

namespace judge {

/// What publishing does when its final name exists already.
enum class on_existing {
  replace, ///< the new entry takes the name (a folder that is there is removed first)
  keep     ///< the one there stays and the new one is dropped (a cache entry of the same content, a secret)
};

/// A temporary name beside `target` (same folder, so the rename is one step within one file system) that
/// no other writer uses at the same time: ".<name>.tmp-<pid>-<count>-<random>". Two threads, two judges,
/// and two judges in different PID namespaces sharing the folder each get their own. Creates nothing;
/// removes whatever was made under the name unless it was published.
class staged_path {
public:
  explicit staged_path(std::filesystem::path target);
  staged_path(const staged_path&) = delete;
  staged_path& operator=(const staged_path&) = delete;
  ~staged_path();

  const std::filesystem::path& path() const { return m_path; }
  const std::filesystem::path& target() const { return m_target; }

  /// Renames path() to target(). True when the new entry now has the name; false with on_existing::keep
  /// when another was there (the staged one is then removed). With `durable`, the folder is synced
  /// afterwards so that the rename survives a crash of the machine (what is inside is the writer's to
  /// sync first). Throws std::system_error naming the target for any other failure.
  bool publish(on_existing existing, bool durable = false);

private:
  std::filesystem::path m_target, m_path;
  bool m_published = false;
};

/// How publish_file() writes.
struct publish_options {
  on_existing existing = on_existing::replace;
  mode_t mode = 0666; ///< the new file's permissions, less the umask
  /// Sync the file before the rename and the folder after: a crash then leaves the old file or the whole
  /// new one, never an empty one under the final name (a rename may reach the disk before the data).
  bool durable = true;
};

/// Writes `text` to `target` (creating its folders) through a staged_path. True when `text` is now the
/// file; false with on_existing::keep when one was there already. Throws std::system_error naming the
/// step ("cannot write /x/.y.tmp-...") when it cannot.
bool publish_file(const std::filesystem::path& target, const std::string& text, const publish_options& options = {});

/// publish_file() for a report or page: replaces what is there. Throws std::runtime_error naming `what`
/// ("the JUnit report"), the path and why when it cannot.
void write_file_atomically(const std::filesystem::path& path, const std::string& text, const std::string& what);

} // namespace judge
