// Small text edits shared by the judge's folders, and how every report writes a time.
#pragma once

#include <string>
#include <string_view>

namespace judge {

/// `text` with every occurrence of `from` replaced by `to`, left to right, never re-reading a replacement.
/// An empty `from` changes nothing.
std::string replace_all(std::string text, std::string_view from, std::string_view to);

/// "58.2 us" below a millisecond, "1.234 ms" from there: how every report writes a time.
std::string time_text(double ms);

} // namespace judge
