#include "catch.hpp"

#include "common/stats.hpp"

#include <cmath>
#include <vector>

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

TEST_CASE("the median's precision is the half-width of its order-statistic 95% interval", "[stats]") {
  std::vector<double> one_to_hundred;
  for (int i = 1; i <= 100; ++i) one_to_hundred.push_back(i);
  // n = 100: ranks floor(50 - 9.8) = 40 and ceil(50 + 9.8 + 1) = 61, so (61 - 40) / 2 over the median 50.5.
  CHECK_THAT(judge_stats::median_relative_half_width(one_to_hundred), Catch::Matchers::WithinAbs(10.5 / 50.5, 1e-12));
  CHECK(judge_stats::median_relative_half_width({2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0}) == 0.0);
}

TEST_CASE("the median's precision is unknown below six samples and halves with four times the samples", "[stats]") {
  CHECK(std::isinf(judge_stats::median_relative_half_width({1.0, 2.0, 3.0, 4.0, 5.0})));
  auto quantiles = [](int n) { // evenly spread samples of a uniform distribution on [1, 2]
    std::vector<double> v;
    for (int i = 0; i < n; ++i) v.push_back(1.0 + (i + 0.5) / n);
    return v;
  };
  const double at_400 = judge_stats::median_relative_half_width(quantiles(400));
  const double at_1600 = judge_stats::median_relative_half_width(quantiles(1600));
  CHECK_THAT(at_400 / at_1600, Catch::Matchers::WithinAbs(2.0, 0.1));
}
