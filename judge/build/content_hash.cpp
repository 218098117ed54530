#include "content_hash.hpp"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace judge {

void content_hash::mix(const void* data, std::size_t size) {
  constexpr std::uint64_t prime = 0x100000001b3ull; // FNV-1a 64 prime
  const auto* bytes = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < size; ++i) m_state = (m_state ^ bytes[i]) * prime;
}

content_hash& content_hash::add(std::string_view part) {
  std::uint64_t length = part.size();
  unsigned char prefix[8];
  for (int i = 0; i < 8; ++i) prefix[i] = static_cast<unsigned char>(length >> (8 * i));
  mix(prefix, sizeof prefix);
  mix(part.data(), part.size());
  return *this;
}

content_hash& content_hash::add_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw std::runtime_error("cannot read " + file.string());
  return add(bytes);
}

std::string content_hash::hex() const {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(m_state));
  return text;
}

} // namespace judge
