// The runner's buffer map under a sanitizer (`runner --exact-buffers`): one stderr line per buffer of a
// checked call, `judge-buffer <name> 0x<address> <bytes>`, so that the judge can say which buffer an
// address a sanitizer reports belongs to, or missed ("4 bytes past the end of C"). One format, written
// by the runner and read by the judge; host code only, for g++ and nvcc.
#pragma once

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

namespace judge_wire {

/// One buffer of a checked call: its name in the signature, where it starts on the device, its size.
struct buffer_place {
  std::string name;
  std::uint64_t address = 0;
  std::uint64_t bytes = 0; ///< [B] exactly what solve() was given

  bool operator==(const buffer_place& o) const { return name == o.name && address == o.address && bytes == o.bytes; }
};

/// The line's first word: learner output that happens to start with it is read as a map line too, which
/// can only mislabel an explanation, never change a verdict.
constexpr const char* buffer_map_prefix = "judge-buffer ";

/// The line (without newline) for `place`.
inline std::string buffer_map_line(const buffer_place& place) {
  char numbers[64];
  std::snprintf(numbers, sizeof numbers, " 0x%" PRIx64 " %" PRIu64, place.address, place.bytes);
  return buffer_map_prefix + place.name + numbers;
}

/// The place a map line names; nullopt for any other line.
inline std::optional<buffer_place> parse_buffer_map_line(const std::string& line) {
  const std::string prefix = buffer_map_prefix;
  if (line.compare(0, prefix.size(), prefix) != 0) return std::nullopt;
  const std::size_t name_end = line.find(' ', prefix.size());
  if (name_end == std::string::npos || name_end == prefix.size()) return std::nullopt;
  buffer_place place;
  place.name = line.substr(prefix.size(), name_end - prefix.size());
  char rest = 0;
  std::uint64_t address = 0, bytes = 0;
  if (std::sscanf(line.c_str() + name_end, " 0x%" SCNx64 " %" SCNu64 "%c", &address, &bytes, &rest) != 2)
    return std::nullopt;
  place.address = address;
  place.bytes = bytes;
  return place;
}

} // namespace judge_wire
