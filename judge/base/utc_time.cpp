#include "judge/base/utc_time.hpp"

#include <cctype>
#include <ctime>

namespace judge {

std::string utc_now() { return utc_text(epoch_seconds_now()); }

long long epoch_seconds_now() { return static_cast<long long>(std::time(nullptr)); }

bool fits_time_pattern(const std::string& text, const std::string& pattern) {
  if (text.size() != pattern.size()) return false;
  for (std::size_t i = 0; i < text.size(); ++i)
    if (pattern[i] == 'd' ? !std::isdigit(static_cast<unsigned char>(text[i]))
                          : !(text[i] == pattern[i] || (pattern[i] == 'T' && text[i] == ' ')))
      return false;
  return true;
}

std::string utc_text(long long seconds) {
  const std::time_t moment = static_cast<std::time_t>(seconds);
  std::tm tm{};
  gmtime_r(&moment, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

} // namespace judge
