// A grading run's steps, without a GPU: a probe that answers what the test says (device_memo), solutions
// refused before nvcc runs (a source over 1 MiB), and the interrupt raised at a chosen step.
#include "catch.hpp"
#include "scoped_env.hpp"
#include "temp_folder.hpp"
#include "text_match.hpp"

#include "judge/base/file_input.hpp"
#include "judge/grading/grading_run.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using judge::grading_run;
using judge::run_outcome;
using judge_test::contains;

namespace {

std::vector<std::string> names_of(const std::vector<judge::named_step<grading_run>>& steps) {
  std::vector<std::string> names;
  for (const auto& step : steps) names.emplace_back(step.name);
  return names;
}

/// vector_add copied into a root of its own, without its baseline (so that no build runs nvcc), and
/// solutions that are compile errors before any compiler starts.
struct vector_add_root {
  judge_test::temp_folder folder{"grading-run"};
  std::vector<judge::solution_entry> solutions;

  vector_add_root() {
    fs::create_directories(folder / "problems");
    fs::create_directories(folder / "testcases");
    fs::copy(fs::path(JUDGE_SOURCE_DIR) / "problems/vector_add", folder / "problems/vector_add",
             fs::copy_options::recursive);
    fs::copy(fs::path(JUDGE_SOURCE_DIR) / "testcases/vector_add", folder / "testcases/vector_add",
             fs::copy_options::recursive);
    const fs::path spec = folder / "problems/vector_add/problem.yaml";
    std::string text = judge::read_file(spec);
    const auto from = text.find("baseline:"), to = text.find("banned_libraries:");
    REQUIRE(from != std::string::npos);
    REQUIRE(to != std::string::npos);
    text.erase(from, to - from);
    std::ofstream(spec) << text;
  }

  /// A solution over the 1 MiB limit, named `name`.cu.
  void add_oversized(const std::string& name) {
    const fs::path source = folder.write("solutions/" + name + ".cu", std::string(1024 * 1024 + 1, ' '));
    solutions.push_back({source, "solutions/" + name + ".cu", name});
  }

  judge::run_request request(judge::device_memo& devices) const {
    judge::run_request r;
    r.problems_root = folder / "problems";
    r.testcases_root = folder / "testcases";
    r.problem = "vector_add";
    r.solutions = solutions;
    r.compile_jobs = 2;
    r.devices = &devices;
    return r;
  }
};

judge::probe_result no_device(bool) {
  judge::probe_result r;
  r.no_device = true;
  r.error = "no CUDA device is present (a test's probe)";
  return r;
}

judge::probe_result a_device(bool) {
  judge::probe_result r;
  judge::device_info d;
  d.name = "a test's GPU";
  d.cc = "9.0";
  d.sms = 132;
  d.uuid = "GPU-grading-run-test";
  r.device = d;
  return r;
}

/// The steps as they start, and the interrupt raised at the `at`-th start (from 1) of step `stop_at`.
/// The interrupt is the process's one flag: it is lowered again when the test ends.
struct step_watch {
  std::vector<std::string> started;
  std::string stop_at;
  int at = 1;
  judge::step_observer observer() {
    return [this](std::string_view step) {
      started.emplace_back(step);
      if (step == stop_at && --at == 0) judge::g_interrupted = true;
    };
  }
  ~step_watch() { judge::g_interrupted = false; }
};

} // namespace

TEST_CASE("a grading run's steps, and each solution's, in order", "[grading][steps]") {
  CHECK(names_of(grading_run::steps()) ==
        std::vector<std::string>{"load the problem", "probe the GPU", "hand out the builds",
                                 "report the builds when nothing is run", "take the GPU", "measure the GPU's bandwidth",
                                 "set up the grader", "run the baseline", "grade the solutions"});
  CHECK(names_of(grading_run::solution_steps()) ==
        std::vector<std::string>{"wait for its build", "grade it", "hand on its verdict", "explain it",
                                 "hand on its result"});
  CHECK(names_of(grading_run::compiled_only_steps()) ==
        std::vector<std::string>{"wait for its build", "take its build's word", "hand on its result"});
  CHECK(names_of(grading_run::explain_only_steps()) ==
        std::vector<std::string>{"load the problem", "probe the GPU", "end without a GPU", "hand out the builds",
                                 "take the GPU", "set up the grader", "explain the solutions"});
  CHECK(names_of(grading_run::explanation_steps()) ==
        std::vector<std::string>{"wait for its build", "take its graded result", "explain it", "hand on its result"});
}

TEST_CASE("without a GPU a run reports each solution's build and ends there", "[grading][steps]") {
  vector_add_root root;
  root.add_oversized("big");
  judge::device_memo devices(std::chrono::minutes(10), no_device);
  const judge::run_request request = root.request(devices);
  std::vector<std::string> told;
  bool baseline_told = false;
  step_watch watch;
  const run_outcome outcome = grading_run(
                                  request, [&](const judge::solution_result& r) { told.push_back(r.path); },
                                  [&](const run_outcome&) { baseline_told = true; })
                                  .run(watch.observer());
  CHECK(watch.started == std::vector<std::string>{"load the problem", "probe the GPU", "hand out the builds",
                                                  "report the builds when nothing is run", "wait for its build",
                                                  "take its build's word", "hand on its result"});
  CHECK_FALSE(outcome.device);
  CHECK(outcome.no_device_reason == "no CUDA device is present (a test's probe)");
  REQUIRE(outcome.results.size() == 1);
  CHECK(outcome.results[0].v == judge::verdict::compile_error);
  CHECK(contains(outcome.results[0].message, "big.cu: the source file is 1048577 bytes; the limit is 1 MiB"));
  CHECK(outcome.results[0].path == "solutions/big.cu");
  CHECK(told == std::vector<std::string>{"solutions/big.cu"});
  CHECK_FALSE(baseline_told);
  CHECK(outcome.not_graded.empty());
  std::vector<std::string> phases;
  for (const auto& [phase, seconds] : outcome.phases) phases.push_back(phase);
  CHECK(phases == std::vector<std::string>{"problem", "probe", "compile wait"});
}

TEST_CASE("an interrupt during one of the run's steps starts no further step, and nothing is graded",
          "[grading][steps]") {
  const std::string stop_at = GENERATE(as<std::string>{}, "load the problem", "probe the GPU", "hand out the builds");
  CAPTURE(stop_at);
  vector_add_root root;
  root.add_oversized("first");
  root.add_oversized("second");
  judge::device_memo devices(std::chrono::minutes(10), no_device);
  const judge::run_request request = root.request(devices);
  int told = 0;
  step_watch watch;
  watch.stop_at = stop_at;
  const run_outcome outcome =
      grading_run(request, [&](const judge::solution_result&) { ++told; }, {}).run(watch.observer());
  REQUIRE_FALSE(watch.started.empty());
  CHECK(watch.started.back() == stop_at);
  CHECK(outcome.results.empty());
  CHECK(told == 0);
  CHECK(outcome.not_graded == std::vector<std::string>{"solutions/first.cu", "solutions/second.cu"});
}

TEST_CASE("an interrupt between a solution's steps keeps the solutions before it, and it and the rest are not "
          "graded",
          "[grading][steps]") {
  vector_add_root root;
  root.add_oversized("first");
  root.add_oversized("second");
  root.add_oversized("third");
  judge::device_memo devices(std::chrono::minutes(10), no_device);
  const judge::run_request request = root.request(devices);
  step_watch watch;
  watch.stop_at = "take its build's word";
  watch.at = 2; // the second solution's
  const run_outcome outcome = grading_run(request, {}, {}).run(watch.observer());
  REQUIRE(outcome.results.size() == 1);
  CHECK(outcome.results[0].path == "solutions/first.cu");
  CHECK(outcome.not_graded == std::vector<std::string>{"solutions/second.cu", "solutions/third.cu"});
  CHECK(watch.started.back() == "take its build's word");
}

TEST_CASE("an interrupt while another judge holds the GPU ends the wait, and nothing is graded", "[grading][steps]") {
  judge_test::temp_folder locks("locks");
  ::setenv("JUDGE_LOCK_DIR", locks.path().c_str(), 1);
  vector_add_root root;
  root.add_oversized("only");
  judge::device_memo devices(std::chrono::minutes(10), a_device);
  judge::run_request request = root.request(devices);
  bool waited = false;
  request.progress = [&](const judge::run_progress& p) {
    if (p.now != judge::run_progress::step::waiting_for_gpu) return;
    waited = true;
    judge::g_interrupted = true; // Ctrl-C while waiting
  };
  const judge::gpu_lock other(locks.path(), "GPU-grading-run-test", "judge vector_add (another)", {});
  REQUIRE(other.held());
  step_watch watch;
  const run_outcome outcome = grading_run(request, {}, {}).run(watch.observer());
  ::unsetenv("JUDGE_LOCK_DIR");
  CHECK(waited);
  CHECK(watch.started.back() == "take the GPU");
  CHECK(outcome.device);
  CHECK(outcome.results.empty());
  CHECK(outcome.not_graded == std::vector<std::string>{"solutions/only.cu"});
}

TEST_CASE("grade_solutions makes the secret, so that it exists to be hidden, whoever asked for the run",
          "[grading][steps]") {
  vector_add_root root;
  root.add_oversized("big");
  const fs::path secret = root.folder / "config" / "secret";
  const judge_test::scoped_env file("JUDGE_SECRET_FILE", secret.string());
  judge::device_memo devices(std::chrono::minutes(10), no_device);
  judge::run_request request = root.request(devices);
  request.store = root.folder / "results.db";
  REQUIRE_FALSE(fs::exists(secret));
  const run_outcome outcome = judge::grade_solutions(request, nullptr, nullptr);
  CHECK(fs::exists(secret));
  REQUIRE(outcome.results.size() == 1);
  CHECK(outcome.results[0].v == judge::verdict::compile_error);
}

TEST_CASE("an explain-only run without a GPU fails each explanation, saying why, and builds nothing",
          "[grading][steps][sanitizer]") {
  vector_add_root root;
  root.add_oversized("late");
  judge::device_memo devices(std::chrono::minutes(10), no_device);
  judge::run_request request = root.request(devices);
  judge::solution_result graded;
  graded.path = "solutions/late.cu";
  graded.v = judge::verdict::run_time_error;
  graded.sanitizer.state = judge::explanation_state::pending;
  graded.sanitizer.case_name = "n_1001";
  graded.sanitizer.tools = {judge::sanitizer_tool::memcheck};
  request.to_explain = {graded};
  step_watch watch;
  const run_outcome outcome = grading_run(request, {}, {}).run(watch.observer());
  CHECK(watch.started == std::vector<std::string>{"load the problem", "probe the GPU", "end without a GPU"});
  REQUIRE(outcome.results.size() == 1);
  CHECK(outcome.results[0].v == judge::verdict::run_time_error);
  CHECK(outcome.results[0].sanitizer.state == judge::explanation_state::failed);
  CHECK(outcome.results[0].sanitizer.detail == "no CUDA device: no CUDA device is present (a test's probe)");
}
