#include "catch.hpp"
#include "judge/report/report_json.hpp"
#include "judge/report/sandbox_text.hpp"

using namespace judge;

TEST_CASE("reports word each sandbox state, with the reason it was unavailable", "[report]") {
  CHECK(sandbox_text({sandbox_mode::not_run, ""}).empty());
  CHECK(sandbox_text({sandbox_mode::on, ""}) == "on");
  CHECK(sandbox_text({sandbox_mode::off, ""}) == "off");
  CHECK(sandbox_text({sandbox_mode::unavailable, "unshare: Operation not permitted"}) ==
        "unavailable: unshare: Operation not permitted");
}

TEST_CASE("the JSON report carries the sandbox state as facts, with its words beside them", "[report]") {
  solution_result r;
  r.sandbox = {sandbox_mode::unavailable, "no user namespaces"};
  const nlohmann::json j = to_json(r)["sandbox"];
  CHECK(j["mode"] == "unavailable");
  CHECK(j["reason"] == "no user namespaces");
  CHECK(j["text"] == "unavailable: no user namespaces");
}

TEST_CASE("a sandbox without some of its layers is worded with each missing layer and its reason", "[report]") {
  sandbox_status s{sandbox_mode::on, ""};
  s.layers.set_missing(sandbox_layer::cgroup, "cgroup v2 is not mounted");
  s.layers.set_missing(sandbox_layer::pid_namespace, "clone: Operation not permitted");
  CHECK(sandbox_text(s) ==
        "on, without PID namespace (clone: Operation not permitted), cgroup limits (cgroup v2 is not mounted)");
}
