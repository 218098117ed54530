#include "judge/problem/author.hpp"
#include "catch.hpp"
#include "results_fixtures.hpp"

#include <string>
#include <tuple>

using judge::author_from;
using judge_test::temp_folder;

TEST_CASE("an author line near the top of the source names the author", "[author]") {
  auto [source, expected] = GENERATE(table<std::string, std::string>({
      {"// author: Alice Liddell\nextern \"C\" void solve();\n", "Alice Liddell"},
      {"#include <cuda.h>\n  //Author:bob  \r\n", "bob"},
      {"// AUTHOR :  carol\n", "carol"},
      {"/* tiled kernel */\n\n\n// author: dan\n", "dan"},
  }));
  CAPTURE(source);
  CHECK(author_from("/srv/solutions/matmul/kernel.cu", source) == expected);
}

TEST_CASE("an author line past line 20, empty, or not a line comment is ignored", "[author]") {
  std::string late;
  for (int i = 0; i < 20; ++i) late += "// line\n";
  late += "// author: mallory\n";
  auto source = GENERATE_COPY(values<std::string>(
      {late, "// author:\n// author:   \n", "/* author: eve */\n", "int x; // author: eve\n", "// authors: eve\n"}));
  CAPTURE(source);
  CHECK(author_from("/srv/solutions/matmul/tiled.cu", source) == "tiled");
}

TEST_CASE("without an author line the path decides", "[author]") {
  auto [path, expected] = GENERATE(table<std::string, std::string>({
      {"/srv/course/solutions/matmul/alice.cu", "alice"},
      {"/srv/course/solutions/matmul/bob/kernel.cu", "bob"},
      {"/srv/course/solutions/matmul/bob/../carol/main.cu", "carol"},
      {"/srv/course/solutions/matmul/accepted/tiled.cu", "tiled"},
      {"/srv/course/problems/matmul/submissions/accepted/naive.cu", "naive"},
      {"/srv/course/homework/dave/kernel.cu", "kernel"},
      {"/solutions/matmul.cu", "matmul"},
  }));
  CAPTURE(path);
  CHECK(author_from(path, "extern \"C\" void solve();\n") == expected);
}

TEST_CASE("a folder solution is its folder's", "[author]") {
  temp_folder dir;
  std::filesystem::create_directories(dir / "erin");
  CHECK(author_from(dir / "erin", "") == "erin");
  CHECK(author_from((dir / "erin").string() + "/", "") == "erin");
}

TEST_CASE("in a class folder the student's folder is the author, whatever an author line says", "[author]") {
  temp_folder dir;
  std::filesystem::create_directories(dir / "erin");
  CHECK(author_from(dir / "erin", "// author: Erin Q.\n") == "erin");
  CHECK(author_from("/srv/course/solutions/matmul/bob/b.cu", "// author: alice\n") == "bob");
  // A loose file takes the hint.
  CHECK(author_from("/srv/course/solutions/matmul/b.cu", "// author: alice\n") == "alice");
}
