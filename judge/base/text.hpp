// Small text edits shared by the judge's folders.
#pragma once

#include <string>
#include <string_view>

namespace judge {

/// `text` with every occurrence of `from` replaced by `to`, left to right, never re-reading a replacement.
/// An empty `from` changes nothing.
std::string replace_all(std::string text, std::string_view from, std::string_view to);

} // namespace judge
