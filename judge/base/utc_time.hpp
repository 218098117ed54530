// The judge's one way of writing a moment: ISO-8601 in UTC, as results, reports and lock files store it.
#pragma once

#include <string>

namespace judge {

/// The time now as ISO-8601 UTC, e.g. 2026-11-29T14:20:00Z.
std::string utc_now();
/// `seconds` since the epoch as ISO-8601 UTC.
std::string utc_text(long long seconds);
/// [s since the epoch] now: the moment caches store beside what they keep, to tell its age.
long long epoch_seconds_now();
/// Whether `text` has the shape of `pattern`, a moment as people type it: a digit where the pattern has
/// 'd', the pattern's other characters as they are, a space also where it has 'T'
/// ("2026-12-05 18:30" fits "dddd-dd-ddTdd:dd"). The shape only: a 13th month fits.
bool fits_time_pattern(const std::string& text, const std::string& pattern);

} // namespace judge
