#include "judge/service/web/markdown.hpp"

#include <cmark.h>

#include <cstdlib>
#include <memory>
#include <stdexcept>

namespace judge::service {

std::string markdown_to_html(const std::string& markdown) {
  // CMARK_OPT_SAFE is cmark's default since 0.29 and a no-op there; it is named so that an older cmark
  // is safe too. Statements are written by instructors, but a problem folder may come from anywhere.
  const int options = CMARK_OPT_DEFAULT | CMARK_OPT_SAFE | CMARK_OPT_VALIDATE_UTF8 | CMARK_OPT_SMART;
  std::unique_ptr<char, decltype(&std::free)> html(cmark_markdown_to_html(markdown.data(), markdown.size(), options),
                                                   &std::free);
  if (!html) throw std::runtime_error("rendering a statement: cmark ran out of memory");
  return html.get();
}

} // namespace judge::service
