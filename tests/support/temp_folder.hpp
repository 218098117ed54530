// The tests' one scratch folder: a new, empty folder under the system's temporary folder, removed with
// everything in it at the end of the test.
#pragma once

#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <system_error>

namespace judge_test {

class temp_folder {
public:
  /// "judge-test-<tag>-XXXXXX" with the X's random (mkdtemp): two tests, or two runs of the suite at
  /// once, never share one. Readable by all (0755), as the folders a judge makes are: a judge run as
  /// root gives its sandboxed children another user, who must still reach a fake runner kept here.
  explicit temp_folder(const std::string& tag = "scratch") {
    std::string pattern = (std::filesystem::temp_directory_path() / ("judge-test-" + tag + "-XXXXXX")).string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error("cannot create a scratch folder " + pattern);
    ::chmod(pattern.c_str(), 0755);
    m_path = pattern;
  }
  ~temp_folder() {
    std::error_code ignored; // a test that failed half-way must not also fail its cleanup
    std::filesystem::remove_all(m_path, ignored);
  }
  temp_folder(const temp_folder&) = delete;
  temp_folder& operator=(const temp_folder&) = delete;

  const std::filesystem::path& path() const { return m_path; }
  std::filesystem::path operator/(const std::string& name) const { return m_path / name; }

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

} // namespace judge_test
