#include "catch.hpp"
#include "text_match.hpp"

#include "judge/service/web/web_assets.hpp"

using judge::service::find_web_asset;
using judge_test::contains;

TEST_CASE("the stylesheet and the scripts are compiled in with their content types", "[web]") {
  const auto* css = find_web_asset("web.css");
  REQUIRE(css != nullptr);
  CHECK(css->content_type == "text/css; charset=utf-8");
  CHECK(contains(std::string(css->body), "table.data"));
  for (const char* script : {"submission.js", "board.js"}) {
    CAPTURE(script);
    const auto* js = find_web_asset(script);
    REQUIRE(js != nullptr);
    CHECK(js->content_type == "text/javascript; charset=utf-8");
    CHECK(contains(std::string(js->body), "use strict"));
  }
}

TEST_CASE("an asset is found by its exact name only", "[web]") {
  CHECK(find_web_asset("missing.css") == nullptr);
  CHECK(find_web_asset("../web.css") == nullptr);
  CHECK(find_web_asset("") == nullptr);
}

TEST_CASE("no asset refers to anything outside the server", "[web]") {
  for (const char* name : {"web.css", "submission.js", "board.js"}) {
    CAPTURE(name);
    const std::string body(find_web_asset(name)->body);
    CHECK_FALSE(contains(body, "http://"));
    CHECK_FALSE(contains(body, "https://"));
    CHECK_FALSE(contains(body, "//cdn"));
  }
}

TEST_CASE("the board says when it was updated in UTC ISO time as every other time on the site", "[web]") {
  const std::string board(find_web_asset("board.js")->body);
  CHECK(board.find("toISOString()") != std::string::npos);
  CHECK(board.find("toLocaleTimeString") == std::string::npos);
}
