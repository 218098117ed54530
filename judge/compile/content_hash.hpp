// A content hash for cache keys: 64-bit FNV-1a over length-prefixed parts, so that ("ab", "c") and
// ("a", "bc") differ. Not cryptographic; it names cache entries, it does not defend them.
#pragma once

#include "judge/base/fnv1a.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace judge {

class content_hash {
public:
  /// Adds one part: its length, then its bytes.
  content_hash& add(std::string_view part);
  /// Adds a file's bytes as one part; throws std::runtime_error naming the file if it cannot be read.
  content_hash& add_file(const std::filesystem::path& file);
  std::uint64_t value() const { return m_state; }
  /// 16 lowercase hex digits.
  std::string hex() const;

private:
  std::uint64_t m_state = fnv1a_basis;
};

} // namespace judge
