#include "catch.hpp"

#include "judge/store/legacy_forms.hpp"
#include "judge/record/record_json.hpp"

#include <stdexcept>

using namespace judge;

TEST_CASE("a result document the queue kept with the sandbox in words reads as facts", "[store]") {
  sandbox_status partly{sandbox_mode::on, ""};
  partly.layers.set_missing(sandbox_layer::pid_namespace, "clone: Operation not permitted");
  partly.layers.set_missing(sandbox_layer::cgroup, "no cgroup v2 here (mounted: none)");
  const auto [words, state] = GENERATE_COPY(table<std::string, sandbox_status>({
      {"", {sandbox_mode::not_run, ""}},
      {"on", {sandbox_mode::on, ""}},
      // A reason may hold parentheses and commas of its own.
      {"on, without PID namespace (clone: Operation not permitted), cgroup limits (no cgroup v2 here (mounted: none))",
       partly},
      {"off", {sandbox_mode::off, ""}},
      {"unavailable: unshare: Operation not permitted",
       {sandbox_mode::unavailable, "unshare: Operation not permitted"}},
  }));
  CAPTURE(words);
  const nlohmann::json old = {{"verdict", "AC"}, {"sandbox", words}, {"cases", nlohmann::json::array()}};
  const nlohmann::json upgraded = store::upgraded_result_document(old);
  CHECK(sandbox_from_json(upgraded.at("sandbox"), "") == state);
  CHECK(upgraded.at("sandbox").at("text") == words); // the words stay beside the facts
  CHECK(upgraded.at("kernels") == nlohmann::json::array());
  CHECK(upgraded.at("hints") == nlohmann::json::array());
  // A document already in the codec's form is left as it is.
  CHECK(store::upgraded_result_document(upgraded) == upgraded);
}

TEST_CASE("a timed case of an old result document gets the launches list it lacked", "[store]") {
  const nlohmann::json old = {{"sandbox", "off"},
                              {"cases", {{{"name", "a"}, {"timing", nlohmann::json::object()}}, {{"name", "b"}}}}};
  const nlohmann::json upgraded = store::upgraded_result_document(old);
  CHECK(upgraded["cases"][0].at("launches") == nlohmann::json::array());
  CHECK_FALSE(upgraded["cases"][1].contains("launches"));
}

TEST_CASE("the store's sandbox words of every earlier version read as the state they said", "[store]") {
  CHECK(store::sandbox_from_words("on; all layers", "f.db") == sandbox_status{sandbox_mode::on, ""});
  const sandbox_status s = store::sandbox_from_words("on; no cgroup: cgroup v2 is not mounted", "f.db");
  CHECK(s.mode == sandbox_mode::on);
  CHECK_FALSE(s.layers.on(sandbox_layer::cgroup));
  CHECK(s.layers.on(sandbox_layer::private_root));
  CHECK_THROWS_WITH(store::sandbox_from_words("on; no moat: dry", "f.db"),
                    Catch::Matchers::Contains("f.db") && Catch::Matchers::Contains("unknown sandbox state"));
}
