// One problem's broken CPU reference must not lock out the others: the real `judge` executable on a
// copy of the shipped problems (JUDGE_ROOT), with one problem's reference.cpp broken, then missing.
#include "catch.hpp"
#include "judge_command.hpp"
#include "text_match.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;

using judge_test::contains;

namespace {
using copied_root = judge_test::scratch_root;

judge_test::command_result judge_in(const copied_root& root, const std::string& args) {
  return judge_test::run_judge(args, root.environment());
}
} // namespace

TEST_CASE("a problem whose CPU reference does not compile fails alone, with the compiler's message",
          "[cli][reference][nvcc]") {
  copied_root root;
  const fs::path broken = root.dir / "problems" / "matmul" / "reference.cpp";
  std::ofstream(broken, std::ios::app) << "\nint typo_here = ;\n";

  SECTION("judge list still lists every problem") {
    const auto r = judge_in(root, "list");
    CAPTURE(r.output);
    CHECK(r.status == 0);
    for (const char* problem : {"matmul", "transpose", "vector_add"}) CHECK(contains(r.output, problem));
  }

  SECTION("judge verify of the broken problem is a spec error naming the file and the compiler's error") {
    const auto r = judge_in(root, "verify matmul");
    CAPTURE(r.output);
    CHECK(r.status == 2);
    CHECK(contains(r.output, "the CPU reference of problem matmul does not compile"));
    CHECK(contains(r.output, broken.string()));
    CHECK(contains(r.output, "reference.cpp:"));
    CHECK(contains(r.output, "error"));
    CHECK(contains(r.output, "typo_here"));
    // Compiler lines name the file as the instructor knows it, not by the judge's folders.
    CHECK_FALSE(contains(r.output, "runner-cache"));
  }

  SECTION("another problem is graded as before") {
    if (judge_in(root, "device").status == 0) {
      WARN("a CUDA device is present: this section is about machines without one");
      return;
    }
    const auto r =
        judge_in(root, "vector_add " + (root.dir / "problems/vector_add/submissions/accepted/01_simple.cu").string() +
                           " --no-db");
    CAPTURE(r.output);
    CHECK(r.status == 3);
    CHECK(contains(r.output, "no CUDA device"));
    CHECK_FALSE(contains(r.output, "matmul"));
  }
}

TEST_CASE("judge verify of a problem without reference.cpp says that it is missing", "[cli][reference]") {
  copied_root root;
  const fs::path missing = root.dir / "problems" / "transpose" / "reference.cpp";
  fs::remove(missing);
  const auto r = judge_in(root, "verify transpose");
  CAPTURE(r.output);
  CHECK(r.status == 2);
  CHECK(contains(r.output, "problem transpose has no CPU reference"));
  CHECK(contains(r.output, missing.string() + " does not exist"));
}
