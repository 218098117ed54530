// The web pages' routes over HTTP, against a real `judge serve` on 127.0.0.1: who may see what, the
// token cookie, the form's checks, and the assets.
#include "catch.hpp"
#include "judge_server.hpp"
#include "results_fixtures.hpp"
#include "text_match.hpp"

#include <httplib.h>

using judge_test::contains;
using judge_test::temp_folder;

namespace {
struct web_class {
  temp_folder dir;
  std::filesystem::path db = dir / "judge.db";
  std::string alice = judge_test::add_account(db, "alice", "student");
  std::string bob = judge_test::add_account(db, "bob", "student");
  std::string tina = judge_test::add_account(db, "tina", "instructor");
  judge_test::judge_server server{db, {"--per-minute", "2"}};

  /// A browser of `token`'s owner: the cookie the sign-in sets, and no bearer header.
  httplib::Client browser(const std::string& token) const {
    httplib::Client c = server.client("");
    c.set_default_headers({{"Cookie", "judge_token=" + token}});
    return c;
  }
  /// Submits `source` as `name` through the form; the response as it came (no redirect followed).
  /// The submit page's form token sent back, as the page's own form does.
  httplib::Result submit(const std::string& token, const std::string& name, const std::string& source) const {
    httplib::MultipartFormDataItems form = {
        {"file_name", name, "", ""}, {"source", source, "", ""}, {"form_token", form_token_in_page(token), "", ""}};
    return browser(token).Post("/problems/matmul/submit", form);
  }
  /// The hidden form_token field of the submit page `token`'s owner sees.
  std::string form_token_in_page(const std::string& token) const {
    const auto page = browser(token).Get("/problems/matmul/submit");
    REQUIRE(page);
    const std::string field = "name=\"form_token\" value=\"";
    const auto at = page->body.find(field);
    REQUIRE(at != std::string::npos);
    const auto start = at + field.size();
    return page->body.substr(start, page->body.find('"', start) - start);
  }
};

const std::string compiles =
    "extern \"C\" void solve(const float* A, const float* B, float* C, int M, int N, int K) {}\n";
} // namespace

TEST_CASE("signing in sets an HttpOnly SameSite=Strict cookie and a wrong token gets a 401 page", "[web][serve]") {
  web_class c;
  httplib::Client client = c.server.client("");
  const auto good = client.Post("/signin", httplib::Params{{"token", c.alice}});
  REQUIRE(good);
  CHECK(good->status == 303);
  CHECK(good->get_header_value("Location") == "/problems");
  const std::string cookie = good->get_header_value("Set-Cookie");
  CHECK(contains(cookie, "judge_token=" + c.alice));
  CHECK(contains(cookie, "HttpOnly"));
  CHECK(contains(cookie, "SameSite=Strict"));
  CHECK(contains(cookie, "Path=/"));
  const auto bad = client.Post("/signin", httplib::Params{{"token", "jt_nobody"}});
  REQUIRE(bad);
  CHECK(bad->status == 401);
  CHECK(contains(bad->body, "That token is not known here"));
  CHECK(bad->get_header_value("Set-Cookie").empty());
}

TEST_CASE("a sign-in form posted from another site is refused", "[web][serve]") {
  web_class c;
  httplib::Client client = c.server.client("");
  client.set_default_headers({{"Origin", "https://evil.example"}});
  const auto r = client.Post("/signin", httplib::Params{{"token", c.alice}});
  REQUIRE(r);
  CHECK(r->status == 403);
  CHECK(r->get_header_value("Set-Cookie").empty());
}

TEST_CASE("pages need a signed-in account and send others to the sign-in page", "[web][serve]") {
  web_class c;
  for (const char* path :
       {"/problems", "/problems/matmul", "/problems/matmul/submit", "/history", "/board/matmul", "/submissions/1"}) {
    CAPTURE(path);
    const auto r = c.server.client("").Get(path);
    REQUIRE(r);
    CHECK(r->status == 303);
    CHECK(r->get_header_value("Location") == "/");
  }
  const auto page = c.browser(c.alice).Get("/problems");
  REQUIRE(page);
  CHECK(page->status == 200);
  CHECK(contains(page->body, "Signed in as <strong>alice</strong>"));
  CHECK(contains(page->get_header_value("Content-Security-Policy"), "script-src 'self'"));
  CHECK(page->get_header_value("Cache-Control") == "no-store");
}

TEST_CASE("a problem's page renders its statement and the submit page its starter", "[web][serve]") {
  web_class c;
  const auto problem = c.browser(c.alice).Get("/problems/matmul");
  REQUIRE(problem);
  CHECK(problem->status == 200);
  CHECK(contains(problem->body, "<div class=\"statement\">\n<h"));
  const auto submit = c.browser(c.alice).Get("/problems/matmul/submit");
  REQUIRE(submit);
  CHECK(contains(submit->body, "solve("));
  const auto unknown = c.browser(c.alice).Get("/problems/nope");
  REQUIRE(unknown);
  CHECK(unknown->status == 404);
  CHECK(contains(unknown->body, "There is no problem called nope"));
}

TEST_CASE("a form submission goes to its page which only its author and instructors see", "[web][serve]") {
  web_class c;
  const auto r = c.submit(c.alice, "alice.cu", compiles);
  REQUIRE(r);
  CHECK(r->status == 303);
  const std::string page = r->get_header_value("Location");
  CHECK(page == "/submissions/1");
  const auto own = c.browser(c.alice).Get(page.c_str());
  REQUIRE(own);
  CHECK(own->status == 200);
  CHECK(contains(own->body, "data-submission=\"1\""));
  const auto other = c.browser(c.bob).Get(page.c_str());
  REQUIRE(other);
  CHECK(other->status == 404);
  CHECK_FALSE(contains(other->body, "solve("));
  const auto instructor = c.browser(c.tina).Get(page.c_str());
  REQUIRE(instructor);
  CHECK(instructor->status == 200);
  const auto history = c.browser(c.tina).Get("/history");
  REQUIRE(history);
  CHECK(contains(history->body, "<td>alice</td>"));
}

TEST_CASE("a form the API would refuse is refused with its message and the source kept", "[web][serve]") {
  web_class c;
  SECTION("a path-like file name") {
    const auto r = c.submit(c.alice, "../evil.cu", compiles);
    REQUIRE(r);
    CHECK(r->status == 400);
    // In the form's words: the form has no files[0].
    CHECK(contains(r->body, "file name &quot;../evil.cu&quot; is not allowed"));
    CHECK_FALSE(contains(r->body, "files[0]"));
    CHECK(contains(r->body, "role=\"alert\""));
    CHECK(contains(r->body, "extern &quot;C&quot; void solve"));
  }
  SECTION("nothing to submit") {
    const auto r = c.submit(c.alice, "a.cu", "");
    REQUIRE(r);
    CHECK(r->status == 400);
    CHECK(contains(r->body, "nothing to submit: paste your solution or choose files to upload"));
  }
  SECTION("bytes that are not UTF-8") {
    const auto r = c.submit(c.alice, "a.cu", "// caf\xe9\n" + compiles);
    REQUIRE(r);
    CHECK(r->status == 400);
    CHECK(contains(r->body, "not UTF-8 text"));
  }
  const auto history = c.browser(c.alice).Get("/history");
  REQUIRE(history);
  CHECK(contains(history->body, "No submissions yet"));
}

TEST_CASE("a student over the rate limit is told so and when to retry", "[web][serve]") {
  web_class c; // --per-minute 2
  CHECK(c.submit(c.bob, "a.cu", compiles)->status == 303);
  CHECK(c.submit(c.bob, "a.cu", compiles)->status == 303);
  const auto third = c.submit(c.bob, "a.cu", compiles);
  REQUIRE(third);
  CHECK(third->status == 429);
  CHECK_FALSE(third->get_header_value("Retry-After").empty());
  CHECK(contains(third->body, "role=\"alert\""));
}

TEST_CASE("the stylesheets and the scripts are served and nothing else is", "[web][serve]") {
  web_class c;
  httplib::Client client = c.server.client("");
  for (const char* asset :
       {"/assets/web.css", "/assets/submission.js", "/assets/board.js", "/assets/leaderboard.css"}) {
    CAPTURE(asset);
    const auto r = client.Get(asset);
    REQUIRE(r);
    CHECK(r->status == 200);
    CHECK_FALSE(r->body.empty());
  }
  CHECK(client.Get("/assets/web.css")->get_header_value("Content-Type") == "text/css; charset=utf-8");
  CHECK(client.Get("/assets/nope.js")->status == 404);
  // HEAD (a proxy's health check): a GET's headers, its length included, and no body.
  const auto head = client.Head("/assets/web.css");
  REQUIRE(head);
  CHECK(head->status == 200);
  CHECK(head->body.empty());
  CHECK(std::stoul(head->get_header_value("Content-Length")) == client.Get("/assets/web.css")->body.size());
  const auto icon = client.Get("/favicon.ico");
  REQUIRE(icon);
  CHECK(icon->status == 200);
  CHECK(icon->get_header_value("Content-Type") == "image/svg+xml");
}

TEST_CASE("signing out clears the cookie", "[web][serve]") {
  web_class c;
  const auto r = c.browser(c.alice).Post("/signout", httplib::Params{{"form_token", c.form_token_in_page(c.alice)}});
  REQUIRE(r);
  CHECK(r->status == 303);
  CHECK(contains(r->get_header_value("Set-Cookie"), "judge_token=; Path=/"));
  CHECK(contains(r->get_header_value("Set-Cookie"), "Max-Age=0"));
}

TEST_CASE("a form without the page's form token or from another origin changes nothing", "[web][serve][csrf]") {
  web_class c;
  const std::string token = c.form_token_in_page(c.alice);
  CHECK(token.size() == 32);
  CHECK(c.form_token_in_page(c.bob) != token);
  SECTION("a submission without the token") {
    httplib::MultipartFormDataItems form = {{"file_name", "a.cu", "", ""}, {"source", compiles, "", ""}};
    const auto r = c.browser(c.alice).Post("/problems/matmul/submit", form);
    REQUIRE(r);
    CHECK(r->status == 403);
    CHECK(contains(r->body, "reload the page"));
  }
  SECTION("a submission with another student's token") {
    httplib::MultipartFormDataItems form = {{"file_name", "a.cu", "", ""},
                                            {"source", compiles, "", ""},
                                            {"form_token", c.form_token_in_page(c.bob), "", ""}};
    const auto r = c.browser(c.alice).Post("/problems/matmul/submit", form);
    REQUIRE(r);
    CHECK(r->status == 403);
  }
  SECTION("a submission with the token, from a page on another port of this host") {
    httplib::Client browser = c.browser(c.alice);
    browser.set_default_headers({{"Cookie", "judge_token=" + c.alice}, {"Origin", "http://127.0.0.1:1"}});
    httplib::MultipartFormDataItems form = {
        {"file_name", "a.cu", "", ""}, {"source", compiles, "", ""}, {"form_token", token, "", ""}};
    const auto r = browser.Post("/problems/matmul/submit", form);
    REQUIRE(r);
    CHECK(r->status == 403);
    CHECK(contains(r->body, "another site"));
  }
  SECTION("a submission the browser says came from another site") {
    httplib::Client browser = c.browser(c.alice);
    browser.set_default_headers({{"Cookie", "judge_token=" + c.alice}, {"Sec-Fetch-Site", "same-site"}});
    httplib::MultipartFormDataItems form = {
        {"file_name", "a.cu", "", ""}, {"source", compiles, "", ""}, {"form_token", token, "", ""}};
    const auto r = browser.Post("/problems/matmul/submit", form);
    REQUIRE(r);
    CHECK(r->status == 403);
  }
  SECTION("signing out from another site or without the token") {
    httplib::Client browser = c.browser(c.alice);
    browser.set_default_headers({{"Cookie", "judge_token=" + c.alice}, {"Origin", "http://127.0.0.1:1"}});
    const auto cross = browser.Post("/signout", httplib::Params{{"form_token", token}});
    REQUIRE(cross);
    CHECK(cross->status == 403);
    CHECK(cross->get_header_value("Set-Cookie").empty());
    const auto bare = c.browser(c.alice).Post("/signout");
    REQUIRE(bare);
    CHECK(bare->status == 403);
    CHECK(bare->get_header_value("Set-Cookie").empty());
  }
  const auto history = c.browser(c.alice).Get("/history");
  REQUIRE(history);
  CHECK(contains(history->body, "No submissions yet"));
}
