#include "catch.hpp"

#include "stats.hpp"

TEST_CASE("the median of an odd and an even count of samples", "[stats]") {
  CHECK(judge_stats::median({3.0, 1.0, 2.0}) == 2.0);
  CHECK(judge_stats::median({4.0, 1.0, 3.0, 2.0}) == 2.5);
  CHECK(judge_stats::median({}) == 0.0);
}

TEST_CASE("relative standard deviation is the sample deviation over the mean", "[stats]") {
  CHECK(judge_stats::relative_stddev({5.0, 5.0, 5.0}) == 0.0);
  CHECK_THAT(judge_stats::relative_stddev({1.0, 2.0, 3.0}), Catch::Matchers::WithinAbs(0.5, 1e-12));
}

TEST_CASE("the geometric mean of speeds, and zero when a speed is missing", "[stats]") {
  CHECK_THAT(judge_stats::geometric_mean({2.0, 8.0}), Catch::Matchers::WithinAbs(4.0, 1e-12));
  CHECK(judge_stats::geometric_mean({2.0, 0.0}) == 0.0);
  CHECK(judge_stats::geometric_mean({}) == 0.0);
}
