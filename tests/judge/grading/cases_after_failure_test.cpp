#include "catch.hpp"
#include "text_match.hpp"

#include "judge/grading/cases_after_failure.hpp"

using namespace judge;
using judge_test::contains;

namespace {
case_result failed(const std::string& name, std::vector<std::int64_t> sizes, verdict v) {
  case_result c;
  c.name = name;
  c.sizes = std::move(sizes);
  c.v = v;
  return c;
}
} // namespace

TEST_CASE("after a failure, cases no larger than it run and larger ones do not", "[cases_after_failure]") {
  cases_after_failure after(failed("ragged_1001x513x777", {1001, 513, 777}, verdict::wrong_answer), true);
  CHECK(after.runs({7, 5, 3}));
  CHECK(after.runs({1001, 513, 777}));
  CHECK_FALSE(after.runs({1024, 512, 1024})); // aligned, but an aligned case was right before
  CHECK(after.runs({4099, 64, 3})); // tall, but fewer elements
  CHECK(contains(after.reason(), "case ragged_1001x513x777 decided the verdict (WA)"));
}

TEST_CASE("a ragged failure before any aligned case was right lets one aligned case through", "[cases_after_failure]") {
  cases_after_failure after(failed("sample_17x9x13", {17, 9, 13}, verdict::run_time_error), false);
  CHECK_FALSE(after.runs({1001, 513, 777}));
  CHECK(after.runs({1024, 512, 1024}));
  CHECK_FALSE(after.runs({2048, 512, 1024})); // only one
  SECTION("or none, once a smaller aligned case was right after the failure") {
    cases_after_failure later(failed("ragged_100", {100, 100, 100}, verdict::wrong_answer), false);
    REQUIRE(later.runs({32, 32, 32}));
    later.ran(failed("aligned_32", {32, 32, 32}, verdict::accepted));
    CHECK_FALSE(later.runs({1024, 512, 1024}));
  }
}

TEST_CASE("an aligned failure lets no larger case through", "[cases_after_failure]") {
  cases_after_failure after(failed("aligned_64", {64, 64, 64}, verdict::wrong_answer), false);
  CHECK_FALSE(after.runs({128, 64, 64}));
  CHECK(after.runs({63, 64, 64}));
}

TEST_CASE("after a hang nothing runs", "[cases_after_failure]") {
  cases_after_failure after(failed("n_100", {100}, verdict::time_limit_exceeded), false);
  CHECK_FALSE(after.runs({1}));
  CHECK(contains(after.reason(), "case n_100 ran out of time"));
}
