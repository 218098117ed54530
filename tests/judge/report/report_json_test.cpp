#include "catch.hpp"
#include "results_fixtures.hpp"
#include "text_match.hpp"

#include "judge/report/contest_view.hpp"
#include "judge/report/report_json.hpp"
#include "judge/report/report_terminal.hpp"

#include <stdexcept>

using namespace judge;
using judge::testing::accepted_result;
using judge::testing::implausible_result;
using judge::testing::wrong_result;
using judge_test::contains;

namespace {
/// What a result read back from its JSON must show: everything but what to_json() leaves out.
solution_result as_sent(solution_result r) {
  r.learner_output.clear();
  r.compile_output.clear();
  return r;
}

std::string shown(const solution_result& r) { return render_solution(r, "cuBLAS", terminal_style{}); }

std::string error_of(const nlohmann::json& j) {
  try {
    record_from_json(j);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}
} // namespace

TEST_CASE("a result read back from its JSON shows the same terminal report", "[report]") {
  const solution_result original =
      GENERATE(accepted_result("alice", 15000), wrong_result("bob"), implausible_result("carol", 90000));
  CAPTURE(original.author);
  const solution_result back = record_from_json(to_json(original));
  CHECK(shown(back) == shown(as_sent(original)));
  CHECK(back.v == original.v);
  CHECK(back.score == original.score);
  CHECK(back.implausible == original.implausible);
  CHECK(to_json(back) == to_json(original));
}

TEST_CASE("a result compiled but not run reads back as not run", "[report]") {
  solution_result r = accepted_result("dave", 1);
  r.compiled_only = true;
  r.v = verdict::internal_error;
  r.cases.clear();
  r.score = 0;
  const solution_result back = record_from_json(to_json(r));
  CHECK(back.compiled_only);
  CHECK(contains(shown(back), "compiled, not run: no CUDA device"));
}

TEST_CASE("a compile error reads back with the compiler's message", "[report]") {
  solution_result r = accepted_result("erin", 1);
  r.v = verdict::compile_error;
  r.message = "wrong_signature.cu(5): error: more than one instance of overloaded function \"solve\"";
  r.cases.clear();
  r.score = 0;
  const std::string text = shown(record_from_json(to_json(r)));
  CHECK(contains(text, "CE"));
  CHECK(contains(text, "| wrong_signature.cu(5): error"));
}

TEST_CASE("a result document without a field is refused naming the field", "[report]") {
  nlohmann::json j = to_json(accepted_result("alice", 15000));
  SECTION("a solution's field") {
    j.erase("verdict");
    CHECK(contains(error_of(j), "field verdict: missing"));
  }
  SECTION("a case's field, with the case") {
    j["cases"][1].erase("shape");
    CHECK(contains(error_of(j), "case square_1024: field shape: missing"));
  }
  SECTION("a field of the wrong type") {
    j["score"] = "fast";
    CHECK(contains(error_of(j), "field score: of the wrong type"));
  }
  SECTION("a verdict that is no verdict") {
    j["verdict"] = "OK";
    CHECK(contains(error_of(j), "is not a verdict"));
  }
}

TEST_CASE("a failing case's sanitizer findings are in the terminal report and in --json, facts and words",
          "[report][sanitizer]") {
  solution_result r = wrong_result("bob");
  sanitizer_run memcheck;
  memcheck.errors = 1;
  memcheck.seconds = 7.5;
  sanitizer_finding write;
  write.kind = sanitizer_error_kind::invalid_access;
  write.space = memory_space::global;
  write.access = access_kind::write;
  write.size = 4;
  write.kernel = "one_past(float *, long long)";
  write.at = {"writes_past_end.cu", 21};
  write.buffer = "C";
  write.buffer_bytes = 4096;
  write.relation = buffer_relation::after;
  memcheck.findings = {write};
  r.cases[1].sanitizer = {memcheck};
  const std::string text = render_solution(r, "cuBLAS", terminal_style{}, false);
  CHECK(contains(text, "compute-sanitizer on square_1024"));
  CHECK(contains(text, "invalid global write of 4 bytes in one_past at writes_past_end.cu:21: just past the end of "
                       "C (4096 bytes)"));
  const nlohmann::json j = to_json(r);
  const nlohmann::json& run = j.at("cases").at(1).at("sanitizer").at(0);
  CHECK(run.at("tool") == "memcheck");
  CHECK(run.at("summary") == "memcheck, 7.5 s: 1 error");
  CHECK(run.at("findings").at(0).at("relation") == "after");
  CHECK(run.at("findings").at(0).at("at").at("line") == 21);
  CHECK(contains(run.at("findings").at(0).at("text").get<std::string>(), "just past the end of C"));
  CHECK(record_from_json(j).cases[1].sanitizer == r.cases[1].sanitizer);
  // A contest shows nothing of a failed hidden case but its name, shape and verdict.
  CHECK_FALSE(contains(render_solution(contest_view(r), "cuBLAS", terminal_style{}, false), "compute-sanitizer"));
}

TEST_CASE("a verdict printed before its explanation says it is pending, and the explanation prints on its own after",
          "[report][sanitizer]") {
  const solution_result pending = judge::testing::explained_result("bob", false);
  const std::string verdict = render_solution(pending, "cuBLAS", terminal_style{}, false);
  CHECK(contains(verdict, "RTE"));
  CHECK(contains(verdict, "  compute-sanitizer on square_1024: pending (memcheck, at most 40 s)"));
  const solution_result explained = judge::testing::explained_result("bob", true);
  const std::string later = render_explanation(explained);
  CHECK(contains(later, "  compute-sanitizer on square_1024 (explains; never changes the verdict or the time):"));
  CHECK(contains(later, "mine.cu:7"));
  CHECK_FALSE(contains(later, "pending"));
  CHECK_FALSE(contains(later, "RTE")); // the verdict was printed already
  CHECK(contains(render_solution(explained, "cuBLAS", terminal_style{}, false), later));
}

TEST_CASE("an explanation that came after a result's document replaces its pending plan there and nothing else",
          "[report][sanitizer]") {
  const nlohmann::json published = to_json(judge::testing::explained_result("bob", false));
  const solution_result explained = judge::testing::explained_result("bob", true);
  const nlohmann::json updated = with_explanation(published, explained);
  CHECK(updated == to_json(explained));
  CHECK(updated["sanitizer"]["state"] == "done");
  CHECK(updated["cases"][1]["sanitizer"][0]["summary"] == "memcheck, 3.5 s: 1 error");
  // A document with no such case, or an explanation of none, leaves the cases alone.
  solution_result none = wrong_result("bob");
  const nlohmann::json plain = with_explanation(published, none);
  CHECK_FALSE(plain.contains("sanitizer"));
  CHECK(plain["cases"] == published["cases"]);
}

TEST_CASE("a solution's own phases are in its --json entry, and not kept in its record", "[report]") {
  solution_result r = accepted_result("frank", 1);
  r.phases = {{"runner start", 0.25}, {"checked calls", 1.5}, {"timing", 2.0}};
  const nlohmann::json j = to_json(r);
  REQUIRE(j.contains("phases"));
  REQUIRE(j["phases"].size() == 3);
  CHECK(j["phases"][1]["phase"] == "checked calls");
  CHECK(j["phases"][1]["seconds"] == 1.5);
  CHECK(record_from_json(j).phases.empty());
  CHECK_FALSE(to_json(accepted_result("frank", 1)).contains("phases"));
}
