#include "catch.hpp"
#include "text_match.hpp"

#include "judge/service/web/markdown.hpp"

using judge::service::markdown_to_html;
using judge_test::contains;

TEST_CASE("a statement's Markdown becomes headings and code", "[web]") {
  const std::string page =
      markdown_to_html("# Matrix multiply\n\nCompute `C = A B`.\n\n```cuda\nsolve(A, B, C);\n```\n");
  CHECK(contains(page, "<h1>Matrix multiply</h1>"));
  CHECK(contains(page, "<code>C = A B</code>"));
  CHECK(contains(page, "<pre><code class=\"language-cuda\">solve(A, B, C);"));
}

TEST_CASE("raw HTML in a statement is left out", "[web]") {
  const std::string page = markdown_to_html("Hello <script>alert(1)</script>\n\n<iframe src=\"x\"></iframe>\n");
  CHECK_FALSE(contains(page, "<script"));
  CHECK_FALSE(contains(page, "<iframe"));
  CHECK(contains(page, "raw HTML omitted"));
}

TEST_CASE("a javascript link in a statement loses its target", "[web]") {
  const std::string page = markdown_to_html("[click](javascript:alert(1)) and ![x](data:text/html,boom)\n");
  CHECK_FALSE(contains(page, "javascript:"));
  CHECK_FALSE(contains(page, "data:text/html"));
  CHECK(contains(page, "click"));
}

TEST_CASE("text that looks like markup is escaped", "[web]") {
  CHECK(contains(markdown_to_html("a < b && c > d\n"), "a &lt; b &amp;&amp; c &gt; d"));
}
