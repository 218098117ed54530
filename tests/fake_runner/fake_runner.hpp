// For tests: the fake runner (fake_runner.cpp) started in one scenario, through a small script that the
// judge can start like any runner (`SCRIPT --scratch DIR [--banned NAMES]`).
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace judge_test {

/// A folder under the system's temporary folder, removed with everything in it at the end.
class temp_folder {
public:
  explicit temp_folder(const std::string& tag)
      : m_path(std::filesystem::temp_directory_path() /
               ("judge-test-" + tag + "-" + std::to_string(::getpid()) + "-" + std::to_string(next_number()))) {
    std::filesystem::create_directories(m_path);
  }
  ~temp_folder() {
    std::error_code ec;
    std::filesystem::remove_all(m_path, ec);
  }
  temp_folder(const temp_folder&) = delete;
  temp_folder& operator=(const temp_folder&) = delete;
  const std::filesystem::path& path() const { return m_path; }

private:
  static int next_number() {
    static int n = 0;
    return ++n;
  }
  std::filesystem::path m_path;
};

/// The runner to start for `scenario` (see fake_runner.cpp for the list).
inline std::filesystem::path fake_runner(const std::string& scenario) {
  static const temp_folder scripts("fake-runners");
  const std::filesystem::path script = scripts.path() / ("runner-" + scenario);
  if (!std::filesystem::exists(script)) {
    std::ofstream(script) << "#!/bin/sh\nexec '" << JUDGE_FAKE_RUNNER << "' " << scenario << " \"$@\"\n";
    // Runnable by the unprivileged user a root judge's sandboxed children run as.
    std::filesystem::permissions(script, std::filesystem::perms::owner_all | std::filesystem::perms::group_read |
                                             std::filesystem::perms::group_exec | std::filesystem::perms::others_read |
                                             std::filesystem::perms::others_exec);
  }
  return script;
}

} // namespace judge_test
