#include "catch.hpp"
#include "judge/base/utc_time.hpp"

#include <regex>

TEST_CASE("the time now is written as ISO-8601 in UTC", "[base]") {
  const std::string now = judge::utc_now();
  CAPTURE(now);
  CHECK(std::regex_match(now, std::regex(R"(20[0-9]{2}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6][0-9]Z)")));
}
