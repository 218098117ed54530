#include "catch.hpp"
#include "temp_folder.hpp"
#include "text_match.hpp"

#include "judge/sandbox/tool_path.hpp"

#include <cstdlib>
#include <filesystem>
#include <string>

namespace fs = std::filesystem;
using judge::find_cuda_tool;
using judge_test::contains;

namespace {
fs::path executable(const judge_test::temp_folder& dir, const std::string& relative) {
  const fs::path file = dir.write(relative, "#!/bin/sh\n");
  fs::permissions(file, fs::perms::owner_all);
  return file;
}

/// Sets an environment variable for one test, and puts back what was there.
struct scoped_env {
  std::string name, old;
  bool had = false;
  scoped_env(std::string n, const std::string& value) : name(std::move(n)) {
    if (const char* v = std::getenv(name.c_str())) {
      had = true;
      old = v;
    }
    if (value.empty())
      ::unsetenv(name.c_str());
    else
      ::setenv(name.c_str(), value.c_str(), 1);
  }
  ~scoped_env() {
    if (had)
      ::setenv(name.c_str(), old.c_str(), 1);
    else
      ::unsetenv(name.c_str());
  }
};
} // namespace

TEST_CASE("a CUDA tool is found where its variable names it, and nowhere else then", "[tool_path]") {
  const judge_test::temp_folder dir("tools");
  const fs::path named = executable(dir, "mine/ncu");
  const fs::path on_path = executable(dir, "bin/ncu");
  const scoped_env path("PATH", (dir / "bin").string());
  const scoped_env home("CUDA_HOME", "");
  {
    const scoped_env chosen("JUDGE_NCU", named.string());
    CHECK(find_cuda_tool("ncu", "JUDGE_NCU", "").executable == named);
  }
  const scoped_env absent("JUDGE_NCU", (dir / "absent").string());
  const auto missing = find_cuda_tool("ncu", "JUDGE_NCU", "");
  CHECK(missing.executable.empty()); // not the one on PATH: a named tool is never silently replaced
  CHECK(contains(missing.missing, "JUDGE_NCU"));
  CHECK(contains(missing.missing, "absent"));
}

TEST_CASE("a CUDA tool is taken from nvcc's toolkit before CUDA_HOME and PATH", "[tool_path]") {
  const judge_test::temp_folder dir("tools");
  const fs::path nvcc = executable(dir, "cuda/bin/nvcc");
  const fs::path in_toolkit = executable(dir, "cuda/compute-sanitizer/compute-sanitizer");
  const fs::path in_home = executable(dir, "home/bin/compute-sanitizer");
  const fs::path on_path = executable(dir, "bin/compute-sanitizer");
  const scoped_env path("PATH", (dir / "bin").string());
  const scoped_env variable("JUDGE_COMPUTE_SANITIZER", "");
  const scoped_env home("CUDA_HOME", (dir / "home").string());
  CHECK(find_cuda_tool("compute-sanitizer", "JUDGE_COMPUTE_SANITIZER", nvcc).executable == in_toolkit);
  CHECK(find_cuda_tool("compute-sanitizer", "JUDGE_COMPUTE_SANITIZER", "/nowhere/bin/nvcc").executable == in_home);
  const scoped_env no_home("CUDA_HOME", "");
  CHECK(find_cuda_tool("compute-sanitizer", "JUDGE_COMPUTE_SANITIZER", "nvcc").executable == on_path);
}

TEST_CASE("a CUDA tool that is nowhere says where the judge looked and how to name it", "[tool_path]") {
  const judge_test::temp_folder dir("tools");
  const scoped_env path("PATH", (dir / "bin").string());
  const scoped_env home("CUDA_HOME", "");
  const scoped_env variable("JUDGE_NCU", "");
  const auto found = find_cuda_tool("ncu", "JUDGE_NCU", "/opt/cuda/bin/nvcc");
  CHECK(found.executable.empty());
  CHECK(contains(found.missing, "/opt/cuda/bin/ncu"));
  CHECK(contains(found.missing, (dir / "bin" / "ncu").string()));
  CHECK(contains(found.missing, "set JUDGE_NCU to name it"));
}
