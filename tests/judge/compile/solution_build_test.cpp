#include "build_fixtures.hpp"
#include "catch.hpp"
#include "temp_folder.hpp"
#include "text_match.hpp"

#include "judge/base/file_input.hpp"
#include "judge/compile/solution_build.hpp"

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using judge::build_status;
using judge::runner_kind;
using judge::solution_build;
using judge_test::contains;
using judge_test::matmul_like;

namespace {

/// The names of a build's steps as they start, and a stop raised when the named one starts.
struct step_watch {
  std::vector<std::string> started;
  std::string stop_at;
  std::atomic<bool> stop{false};
  judge::step_observer observer() {
    return [this](std::string_view step) {
      started.emplace_back(step);
      if (step == stop_at) stop = true;
    };
  }
};

const std::vector<std::string> every_step = {
    "check the sources",   "build the problem's runner", "hash the build's inputs", "look up the cache",
    "stage the sources",   "compile the units",          "refuse a main()",         "link solution.so",
    "inspect solution.so", "find tensor-core use",       "publish to the cache"};

/// good.cu with a comment of its own, so that no other test's build of it is in the cache.
fs::path fresh_copy_of_good(const judge_test::temp_folder& dir, const std::string& tag) {
  return dir.write("fresh.cu", judge::read_file(judge_test::compile_solutions / "good.cu") + "// " + tag + "\n");
}

} // namespace

TEST_CASE("a build's steps, in order", "[compile][steps]") {
  std::vector<std::string> names;
  for (const auto& step : solution_build::steps()) names.emplace_back(step.name);
  CHECK(names == every_step);
}

TEST_CASE("a source over 1 MiB ends the build at its first step, a compile error", "[compile][steps]") {
  judge_test::temp_folder dir;
  const fs::path big = dir.write("big.cu", std::string(1024 * 1024 + 1, ' '));
  step_watch watch;
  const judge::toolchain tools = judge_test::build_test_tools();
  const auto result = solution_build(matmul_like(), big, runner_kind::solution, tools).run(watch.observer());
  CHECK(watch.started == std::vector<std::string>{"check the sources"});
  CHECK(result.status == build_status::compile_error);
  CHECK(contains(result.message, "big.cu: the source file is 1048577 bytes; the limit is 1 MiB"));
}

TEST_CASE("a harness library that is not built ends the build at its first step, the judge's failure",
          "[compile][steps]") {
  judge::toolchain tools = judge_test::build_test_tools();
  tools.harness_library = "/nonexistent/libjudge_harness.a";
  step_watch watch;
  const auto result =
      solution_build(matmul_like(), judge_test::compile_solutions / "good.cu", runner_kind::solution, tools)
          .run(watch.observer());
  CHECK(watch.started == std::vector<std::string>{"check the sources"});
  CHECK(result.status == build_status::internal_error);
  CHECK(contains(result.message, "the harness library /nonexistent/libjudge_harness.a is not built"));
}

TEST_CASE("a stop during a step ends the build before the next one starts, as stopped and never the learner's "
          "fault",
          "[compile][steps]") {
  // Stopped during the first step: nvcc never starts.
  step_watch watch;
  watch.stop_at = "check the sources";
  judge::toolchain tools = judge_test::build_test_tools();
  tools.stop = &watch.stop;
  const auto result =
      solution_build(matmul_like(), judge_test::compile_solutions / "broken.cu", runner_kind::solution, tools)
          .run(watch.observer());
  CHECK(watch.started == std::vector<std::string>{"check the sources"});
  CHECK(result.status == build_status::internal_error);
  CHECK(result.message == "stopped: the compile was interrupted");
}

TEST_CASE("a toolchain stopped before the build starts runs no step, not even for a source that is missing",
          "[compile][steps]") {
  std::atomic<bool> stop{true};
  judge::toolchain tools = judge_test::build_test_tools();
  tools.stop = &stop;
  step_watch watch;
  judge::build_result result;
  CHECK_NOTHROW(result = solution_build(matmul_like(), "/nonexistent/solution.cu", runner_kind::solution, tools)
                             .run(watch.observer()));
  CHECK(watch.started.empty());
  CHECK(result.status == build_status::internal_error);
  CHECK(result.message == "stopped: the compile was interrupted");
}

TEST_CASE("a fresh build takes every step and a cached one stops at the look-up", "[compile][steps][nvcc]") {
  judge_test::temp_folder dir;
  const fs::path source = fresh_copy_of_good(dir, "every step");
  const judge::toolchain tools = judge_test::build_test_tools();

  step_watch fresh;
  const auto built = solution_build(matmul_like(), source, runner_kind::solution, tools).run(fresh.observer());
  CAPTURE(built.message);
  REQUIRE(built.status == build_status::ok);
  CHECK_FALSE(built.cached);
  CHECK(fresh.started == every_step);

  step_watch again;
  const auto cached = solution_build(matmul_like(), source, runner_kind::solution, tools).run(again.observer());
  CHECK(cached.status == build_status::ok);
  CHECK(cached.cached);
  CHECK(again.started == std::vector<std::string>{"check the sources", "build the problem's runner",
                                                  "hash the build's inputs", "look up the cache"});
  CHECK(cached.solution == built.solution);
  CHECK(cached.kernels == built.kernels);
  CHECK(cached.device_code == built.device_code);
}

TEST_CASE("a stop while the units compile, or while the tensor cores are looked for, publishes nothing",
          "[compile][steps][nvcc]") {
  const std::string stop_at = GENERATE(as<std::string>{}, "compile the units", "find tensor-core use");
  CAPTURE(stop_at);
  judge_test::temp_folder dir;
  const fs::path source = fresh_copy_of_good(dir, "stopped at " + stop_at);
  step_watch watch;
  watch.stop_at = stop_at;
  judge::toolchain tools = judge_test::build_test_tools();
  tools.stop = &watch.stop;
  const auto result = solution_build(matmul_like(), source, runner_kind::solution, tools).run(watch.observer());
  CHECK(result.status == build_status::internal_error);
  CHECK(result.message == "stopped: the compile was interrupted");
  REQUIRE_FALSE(watch.started.empty());
  CHECK(watch.started.back() == stop_at);
  // No entry under the build's key, and no staging folder left beside the entries.
  CHECK_FALSE(fs::exists(result.solution.parent_path()));
  for (const auto& entry : fs::directory_iterator(tools.cache_dir / "matmul_like"))
    CHECK(entry.path().filename().string().find(".tmp-") == std::string::npos);
}
