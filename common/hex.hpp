// Bytes as hexadecimal text and back: the one encoder of the judge and the runner (recorded work's
// parameter bytes, the judge secret, token hashes, Slurm job keys). Header-only C++, standard library only,
// so that nvcc and g++ both take it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace judge_hex {

/// Lowercase hex of `size` bytes at `data`, two digits a byte, most significant nibble first.
inline std::string encode(const void* data, std::size_t size) {
  static constexpr char digits[] = "0123456789abcdef";
  const auto* bytes = static_cast<const unsigned char*>(data);
  std::string text;
  text.reserve(size * 2);
  for (std::size_t i = 0; i < size; ++i) {
    text.push_back(digits[bytes[i] >> 4]);
    text.push_back(digits[bytes[i] & 15]);
  }
  return text;
}

inline std::string encode(std::string_view bytes) { return encode(bytes.data(), bytes.size()); }

/// Which digits decode() accepts. What the judge writes itself is lowercase; a file a person may have
/// edited (the secret) is read in either case.
enum class digits { lowercase, any_case };

/// The value of one hex digit, or -1 when `c` is none (in the case `accepted` allows).
inline int digit_value(char c, digits accepted = digits::lowercase) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (accepted == digits::any_case && c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// The bytes `text` spells, or nullopt when it is not hex digits in pairs.
inline std::optional<std::string> decode(std::string_view text, digits accepted = digits::lowercase) {
  if (text.size() % 2 != 0) return std::nullopt;
  std::string bytes(text.size() / 2, '\0');
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const int high = digit_value(text[2 * i], accepted);
    const int low = digit_value(text[2 * i + 1], accepted);
    if (high < 0 || low < 0) return std::nullopt;
    bytes[i] = static_cast<char>(high * 16 + low);
  }
  return bytes;
}

} // namespace judge_hex
