// A folder the judge creates for runners to write into, and the only place whose files the judge
// reads back or removes on a runner's word. Everything the judge does inside goes through the
// folder's descriptor: names are plain names opened beneath it without following links, and removal
// never leaves it, whatever a runner has put there (links, folders, fifos).
#pragma once

#include <filesystem>
#include <string>

namespace judge {

class scratch_folder {
public:
  /// Creates a new folder, readable by its owner only, in the system's temporary folder:
  /// "<prefix>XXXXXX" with the X's random (mkdtemp), so no one can have prepared it.
  static scratch_folder create_temporary(const std::string& prefix);

  scratch_folder(scratch_folder&& other) noexcept;
  scratch_folder& operator=(scratch_folder&& other) noexcept;
  scratch_folder(const scratch_folder&) = delete;
  scratch_folder& operator=(const scratch_folder&) = delete;
  /// Removes the folder and everything in it.
  ~scratch_folder();

  /// Creates folder `name` (a plain name, see judge_wire::is_simple_file_name), new and private, in this
  /// one. It is removed with its parent at the latest.
  scratch_folder make_subfolder(const std::string& name) const;

  /// Where the folder is, for a runner's command line.
  const std::filesystem::path& path() const { return m_path; }
  /// The folder's descriptor: open files beneath it with openat(fd(), name, ... | O_NOFOLLOW).
  int fd() const { return m_fd; }

  /// Removes entry `name` (a plain name) if it is there and not a folder; a missing one is no error.
  void remove_file(const std::string& name) const;
  /// Removes everything inside the folder, folders and their contents included, following no link.
  void clear() const;

private:
  /// Takes ownership of `fd`, the open folder `path`, which `parent_fd` (owned too, or -1) holds as `name`.
  scratch_folder(std::filesystem::path path, int fd, int parent_fd, std::string name);
  void release() noexcept;

  std::filesystem::path m_path;
  int m_fd = -1;
  int m_parent_fd = -1; ///< -1 for a folder made by create_temporary: it is removed by path
  std::string m_name;
};

} // namespace judge
