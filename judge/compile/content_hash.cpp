#include "judge/compile/content_hash.hpp"

#include "judge/base/file_input.hpp"
#include "judge/base/fnv1a.hpp"

#include <cstdio>

namespace judge {

content_hash& content_hash::add(std::string_view part) {
  std::uint64_t length = part.size();
  char prefix[8];
  for (int i = 0; i < 8; ++i) prefix[i] = static_cast<char>(length >> (8 * i));
  m_state = fnv1a(part, fnv1a(std::string_view(prefix, sizeof prefix), m_state));
  return *this;
}

content_hash& content_hash::add_file(const std::filesystem::path& file) { return add(read_file(file)); }

std::string content_hash::hex() const {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(m_state));
  return text;
}

} // namespace judge
