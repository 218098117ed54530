#include "catch.hpp"
#include "judge/base/text.hpp"

using judge::replace_all;

TEST_CASE("replace_all replaces every occurrence, left to right", "[base]") {
  CHECK(replace_all("@NAME@/@NAME@.cu", "@NAME@", "matmul") == "matmul/matmul.cu");
  CHECK(replace_all("/work/a.cu: error in /work/b.cu", "/work/", "") == "a.cu: error in b.cu");
  CHECK(replace_all("aaa", "aa", "b") == "ba");
  CHECK(replace_all("no match", "xyz", "w") == "no match");
}

TEST_CASE("replace_all never re-reads what it put in", "[base]") {
  CHECK(replace_all("a", "a", "aa") == "aa");
  CHECK(replace_all("x", "x", "") == "");
}

TEST_CASE("replace_all with nothing to find changes nothing", "[base]") {
  CHECK(replace_all("text", "", "!") == "text");
}
