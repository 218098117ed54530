// A course's moments: the UTC times a course file and the store write, as seconds since the epoch and
// back, and how many days late a moment is.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace judge::course {

/// "2026-09-15T23:59Z", "2026-09-15T23:59:30Z", with or without the Z, a space for the T: UTC. A bare
/// date is refused (it would mean 00:00, the start of that day, where a deadline usually means its
/// end). nullopt for anything else, an impossible date (February 30th) included.
std::optional<std::int64_t> parse_utc(const std::string& text);

/// What parse_utc() accepts, for messages.
inline constexpr const char* utc_format = "YYYY-MM-DDTHH:MM[:SS]Z (UTC)";

/// [days] every day begun after the deadline counts whole: 1 s late is 1 day; 0 when not late.
int days_late(std::int64_t late_seconds);

/// "2 days 3 h", "40 min", "12 s": how late, for people.
std::string late_text(std::int64_t late_seconds);

} // namespace judge::course
