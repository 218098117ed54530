// The web pages' stylesheet and scripts (judge/service/web/assets/), compiled into the judge by
// embed_assets.cmake: the GPU host may be offline, and the pages fetch nothing from elsewhere.
#pragma once

#include <string_view>

namespace judge::service {

struct web_asset {
  std::string_view name;         ///< "web.css": served at /assets/<name>
  std::string_view content_type; ///< "text/css; charset=utf-8"
  std::string_view body;
};

/// The asset called `name`, or nullptr.
const web_asset* find_web_asset(std::string_view name);

} // namespace judge::service
