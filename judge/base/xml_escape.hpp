// Escaping text for XML and HTML documents (JUnit reports, the leaderboard page).
#pragma once

#include <string>
#include <string_view>

namespace judge {

/// `text` made safe as XML/HTML element content or a quoted attribute value: & < > " ' become entities,
/// and control characters XML 1.0 forbids (all below U+0020 except tab, newline, carriage return) become
/// U+FFFD, since a learner's output may hold any byte.
std::string xml_escape(std::string_view text);

} // namespace judge
