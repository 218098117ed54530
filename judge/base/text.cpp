#include "judge/base/text.hpp"

#include <fmt/format.h>

namespace judge {

std::string replace_all(std::string text, std::string_view from, std::string_view to) {
  if (from.empty()) return text;
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

std::string time_text(double ms) {
  if (ms < 1.0) return fmt::format("{:.1f} us", ms * 1000.0);
  return fmt::format("{:.3f} ms", ms);
}

} // namespace judge
