// Scratch folders and files for the tests of the spec readers (problem_spec, test_cases, secret).
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

namespace spec_test {

/// A new, empty folder under the system's temporary folder; removed, with everything in it, on destruction.
class scratch_dir {
public:
  scratch_dir() {
    std::string name = (std::filesystem::temp_directory_path() / "judge-spec-test-XXXXXX").string();
    if (!::mkdtemp(name.data())) throw std::runtime_error("cannot create a scratch folder in " + name);
    m_path = name;
  }
  scratch_dir(const scratch_dir&) = delete;
  scratch_dir& operator=(const scratch_dir&) = delete;
  ~scratch_dir() {
    std::error_code ignored; // a test that failed half-way must not also fail its cleanup
    std::filesystem::remove_all(m_path, ignored);
  }

  const std::filesystem::path& path() const { return m_path; }

  /// Writes `text` to `relative` inside the folder, creating folders on the way; returns the full path.
  std::filesystem::path write(const std::string& relative, const std::string& text) const {
    const std::filesystem::path file = m_path / relative;
    std::filesystem::create_directories(file.parent_path());
    std::ofstream out(file, std::ios::binary);
    out << text;
    if (!out) throw std::runtime_error("cannot write " + file.string());
    return file;
  }

private:
  std::filesystem::path m_path;
};

/// what() of the `Error` that `action` throws, or a note that it threw nothing.
template <class Error, class Action> std::string message_of(Action&& action) {
  try {
    action();
  } catch (const Error& e) {
    return e.what();
  }
  return "(nothing was thrown)";
}

} // namespace spec_test
