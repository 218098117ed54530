// Problem statements are Markdown (problems/<name>/statement.md); the web pages show them as HTML,
// rendered by cmark (CommonMark's reference implementation, from Debian).
#pragma once

#include <string>

namespace judge::service {

/// `markdown` as an HTML fragment. Safe for a page: raw HTML in the statement is left out (a comment
/// says so) and links or images to javascript:, vbscript:, file: and data: (other than images) are
/// emptied, as cmark's CMARK_OPT_SAFE does; every text is escaped. Throws std::runtime_error only when
/// cmark runs out of memory.
std::string markdown_to_html(const std::string& markdown);

} // namespace judge::service
