// One problem's broken CPU reference must not lock out the others: the real `judge` executable on a
// copy of the shipped problems (JUDGE_ROOT), with one problem's reference.cpp broken, then missing.
#include "catch.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace fs = std::filesystem;

namespace {

/// A copy of the shipped problems and test cases, with its own runner cache, removed afterwards.
struct copied_root {
  fs::path dir;
  copied_root() {
    std::string pattern = (fs::temp_directory_path() / "reference_isolation_test.XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    dir = pattern;
    fs::copy(fs::path(JUDGE_SOURCE_DIR) / "problems", dir / "problems", fs::copy_options::recursive);
    fs::copy(fs::path(JUDGE_SOURCE_DIR) / "testcases", dir / "testcases", fs::copy_options::recursive);
  }
  ~copied_root() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

struct cli_run {
  int status = -1;
  std::string output; // stdout and stderr together
};

cli_run judge_in(const copied_root& root, const std::string& args) {
  const std::string command = "env JUDGE_ROOT=" + root.dir.string() +
                              " JUDGE_CACHE_DIR=" + (root.dir / "runner-cache").string() + " " + JUDGE_CLI + " " +
                              args + " 2>&1";
  cli_run r;
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe);
  std::array<char, 4096> buffer;
  std::size_t n;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) r.output.append(buffer.data(), n);
  const int raw = ::pclose(pipe);
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return r;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

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
