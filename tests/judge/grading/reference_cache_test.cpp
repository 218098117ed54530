#include "catch.hpp"

#include "judge/grading/reference_cache.hpp"

using namespace judge;

TEST_CASE("CPU references are computed once per case and check, and recomputed past the memory bound", "[reference_cache]") {
  reference_cache cache(3 * sizeof(double));
  int computed = 0;
  const auto compute = [&] {
    ++computed;
    return reference_cache::outputs{{"C", {1.0, 2.0}}};
  };
  CHECK(cache.get(0, 0, compute).at("C")[1] == 2.0);
  cache.get(0, 0, compute);
  CHECK(computed == 1);
  cache.get(0, 1, compute); // past the bound: the cache starts over
  CHECK(computed == 2);
  CHECK(cache.kept_bytes() == 2 * sizeof(double));
  cache.get(0, 0, compute);
  CHECK(computed == 3);
}
