#include "catch.hpp"
#include "report_json.hpp"
#include "sandbox_text.hpp"

using namespace judge;

TEST_CASE("reports word each sandbox state, with the reason it was unavailable", "[report]") {
  CHECK(sandbox_text({sandbox_mode::not_run, ""}).empty());
  CHECK(sandbox_text({sandbox_mode::on, ""}) == "on");
  CHECK(sandbox_text({sandbox_mode::off, ""}) == "off");
  CHECK(sandbox_text({sandbox_mode::unavailable, "unshare: Operation not permitted"}) ==
        "unavailable: unshare: Operation not permitted");
}

TEST_CASE("the JSON report carries the sandbox state as text", "[report]") {
  solution_result r;
  r.sandbox = {sandbox_mode::unavailable, "no user namespaces"};
  CHECK(to_json(r)["sandbox"] == "unavailable: no user namespaces");
}
