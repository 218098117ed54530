#include "judge/course/course_watch.hpp"

#include "judge/course/course_file.hpp"

namespace judge::course {

course_watch::course_watch(std::filesystem::path file, std::function<std::vector<std::string>()> problems,
                           std::function<void(const std::string&)> log)
    : m_file(std::move(file)), m_problems(std::move(problems)), m_log(std::move(log)) {
  m_stamp = stamp();
  m_course = std::make_shared<const course_spec>(load_course(m_file, m_problems()));
  m_checked = std::chrono::steady_clock::now();
}

std::string course_watch::stamp() const {
  std::error_code error;
  const auto size = std::filesystem::file_size(m_file, error);
  if (error) return "-";
  const auto time = std::filesystem::last_write_time(m_file, error);
  return std::to_string(size) + " " + (error ? std::string("-") : std::to_string(time.time_since_epoch().count()));
}

std::shared_ptr<const course_spec> course_watch::current() {
  const std::lock_guard<std::mutex> lock(m_mutex);
  const auto now = std::chrono::steady_clock::now();
  if (now - m_checked < std::chrono::seconds(1)) return m_course;
  m_checked = now;
  const std::string seen = stamp();
  if (seen == m_stamp || seen == m_failed_stamp) return m_course;
  try {
    m_course = std::make_shared<const course_spec>(load_course(m_file, m_problems()));
    m_stamp = seen;
    m_failed_stamp.clear();
    m_log("the course file " + m_course->file + " changed: read again");
  } catch (const std::exception& e) {
    // Half written, or a mistake: the course stays as it was until the file reads.
    m_failed_stamp = seen;
    m_log(std::string("the course file changed but does not read, so the course stays as it was: ") + e.what());
  }
  return m_course;
}

} // namespace judge::course
