// The course file of a running server: read at start (a mistake there stops the server with the file's
// message) and again when it changes, looked at once a second at most, so that an extension or a new
// deadline takes effect without a restart. A changed file that does not read keeps the course as it was,
// and says why once.
#pragma once

#include "judge/course/course.hpp"

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace judge::course {

class course_watch {
public:
  /// Reads `file` (throws spec_error); `problems` gives the problems that exist when it is read again;
  /// `log` hears of a reload and of a reload that failed.
  course_watch(std::filesystem::path file, std::function<std::vector<std::string>()> problems,
               std::function<void(const std::string&)> log);

  /// The course as it is now.
  std::shared_ptr<const course_spec> current();

private:
  std::string stamp() const; ///< the file's size and time: what changes when it is written

  std::filesystem::path m_file;
  std::function<std::vector<std::string>()> m_problems;
  std::function<void(const std::string&)> m_log;
  std::mutex m_mutex;
  std::shared_ptr<const course_spec> m_course;
  std::string m_stamp;
  std::string m_failed_stamp; ///< the stamp of a version that did not read, said once
  std::chrono::steady_clock::time_point m_checked;
};

} // namespace judge::course
