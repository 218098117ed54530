#include "judge/course/course_time.hpp"

#include "judge/base/utc_time.hpp"

#include <fmt/format.h>

#include <ctime>

namespace judge::course {

namespace {
int number(const std::string& text, std::size_t at, std::size_t length) { return std::stoi(text.substr(at, length)); }
} // namespace

std::optional<std::int64_t> parse_utc(const std::string& given) {
  std::string text = given;
  if (!text.empty() && text.back() == 'Z') text.pop_back();
  if (fits_time_pattern(text, "dddd-dd-ddTdd:dd")) text += ":00";
  if (!fits_time_pattern(text, "dddd-dd-ddTdd:dd:dd")) return std::nullopt;
  std::tm tm{};
  tm.tm_year = number(text, 0, 4) - 1900;
  tm.tm_mon = number(text, 5, 2) - 1;
  tm.tm_mday = number(text, 8, 2);
  tm.tm_hour = number(text, 11, 2);
  tm.tm_min = number(text, 14, 2);
  tm.tm_sec = number(text, 17, 2);
  if (tm.tm_mon < 0 || tm.tm_mon > 11 || tm.tm_mday < 1 || tm.tm_hour > 23 || tm.tm_min > 59 || tm.tm_sec > 59)
    return std::nullopt;
  const std::tm asked = tm;
  const std::time_t seconds = timegm(&tm);
  // timegm() carries an impossible day into the next month: such a date was not a date.
  if (tm.tm_mday != asked.tm_mday || tm.tm_mon != asked.tm_mon) return std::nullopt;
  return static_cast<std::int64_t>(seconds);
}

int days_late(std::int64_t late_seconds) {
  if (late_seconds <= 0) return 0;
  return static_cast<int>((late_seconds + 86399) / 86400);
}

std::string late_text(std::int64_t s) {
  if (s >= 86400) {
    const std::int64_t days = s / 86400, hours = (s % 86400) / 3600;
    return fmt::format("{} day{}{}", days, days == 1 ? "" : "s", hours ? fmt::format(" {} h", hours) : "");
  }
  if (s >= 3600) return fmt::format("{} h {} min", s / 3600, (s % 3600) / 60);
  if (s >= 60) return fmt::format("{} min", s / 60);
  return fmt::format("{} s", s);
}

} // namespace judge::course
