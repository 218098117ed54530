#include "catch.hpp"
#include "judge/base/fnv1a.hpp"

using judge::fnv1a;

TEST_CASE("fnv1a gives the published FNV-1a 64 values", "[base]") {
  CHECK(fnv1a("") == 0xcbf29ce484222325ull);
  CHECK(fnv1a("a") == 0xaf63dc4c8601ec8cull);
  CHECK(fnv1a("foobar") == 0x85944171f73967e8ull);
}

TEST_CASE("fnv1a fed in parts equals fnv1a of the whole", "[base]") {
  CHECK(fnv1a("bar", fnv1a("foo")) == fnv1a("foobar"));
  CHECK(fnv1a(std::string_view("\0\xff", 2)) != fnv1a(std::string_view("\xff\0", 2)));
}
